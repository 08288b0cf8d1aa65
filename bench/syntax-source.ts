/**
 * Flow sources of a given size and the incremental reparse the editor does after a keystroke —
 * what bench/syntax.ts and bench/check.ts measure.
 */
import { TreeFragment, type Tree } from '@lezer/common';
import type { LRParser } from '@lezer/lr';

/** One flow exercising most statement forms; `n` keeps names apart between copies. */
function section(n: number): string {
  return `flow research${n} {
  describe "Search, read the best hits, and answer from them."
  in  question: string required "What to find out."
  out answer:   string
  out sources:  string stream
  header "x-a11-deadline" as deadline
  search = run web-search(query: question, limit: 3)
  brief = run llm-summarize(question: question)
      with "x-a11-deadline": deadline
  nodes fetched {
    for hit in search.hits parallel 2 {
      page = try run web-fetch(url: hit.url) timeout 20s
      hit.url -> sources
      page.text | truncate 200 | where it != "" -> brief.pages
      skip page.bytes
    }
  }
  let summary = brief.summary
  if len(summary) > 0 {
    summary | map strformat("%s", it) -> answer
  } else {
    fail not_found "nothing worth reading"
  }
  skip search.debug
}
`;
}

/** A file of whole flows, `lines` lines long (rounded up to a whole flow). */
export function flowOfLines(lines: number): string {
  const perSection = section(0).split('\n').length - 1;
  let text = '';
  for (let n = 0; n * perSection < lines; n += 1) text += section(n);
  return text;
}

/** The text after typing one character inside a name near the middle, and the change made. */
export function keystroke(text: string, seed: number): { text: string; from: number; to: number; inserted: string } {
  const middle = Math.floor(text.length / 2) + (seed % 97) * 31;
  const at = text.indexOf('summary ->', middle);
  const from = at < 0 ? middle : at + 3;
  const inserted = 'x';
  return { text: text.slice(0, from) + inserted + text.slice(from), from, to: from, inserted };
}

/** The reparse an editor does: the old tree's fragments, minus the change, and a parse with them. */
export function reparse(
  parser: LRParser,
  edit: { text: string; from: number; to: number; inserted: string },
  _tree: Tree,
  fragments: readonly TreeFragment[],
): { tree: Tree; fragments: readonly TreeFragment[] } {
  const changed = TreeFragment.applyChanges(fragments, [
    { fromA: edit.from, toA: edit.to, fromB: edit.from, toB: edit.from + edit.inserted.length },
  ]);
  const tree = parser.parse(edit.text, changed);
  return { tree, fragments: TreeFragment.addTree(tree, changed) };
}

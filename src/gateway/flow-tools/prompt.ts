/**
 * What a model is told about the flow tools: one text, in two shapes. `getSystemPrompt()` is the
 * text to put into a larger system prompt; `getSkill()` is the same words as an Agent Skill
 * (`SKILL.md` with `name` and `description` front matter). The checked-in SKILL.md beside this
 * file is generated from these constants (`flowplay skill --write`), and a test fails when the
 * two disagree.
 */
import { languageReference } from './language-reference.js';

export const SKILL_NAME = 'a11-flow';

export const SKILL_DESCRIPTION =
  'Write several tool calls as one A11 Flow and run it in a single step, so the data passed between ' +
  'the tools never has to come back through you. Reach for it when one tool feeds the next, when the ' +
  'same few calls repeat over a list, or when an intermediate result is big and only a summary of it ' +
  'matters. Uses the flow_actions, flow_check and flow_run tools.';

const WHEN = `## When a flow is the better tool

Calling tools one at a time means every result comes back to you and has to be copied into the
next request. A flow describes the whole composition once; the gateway runs it, moves the values
between the steps itself, and hands you only the outputs you declared. Prefer a flow when:

- **one tool's output is the next one's input** and you do not need to read it in between;
- **the same calls repeat for each item** of a list — a \`for\` block does them, \`parallel N\` at a time;
- **something in the middle is large** — a page, a log, a transcript — and you only need what it
  comes to: cut it down inside the flow (\`| first\`, \`| where\`, \`| truncate\`, \`| count\`);
- **steps could overlap** — every step starts as soon as what it reads arrives.

For a single call, call the tool directly. When you must look at a result before deciding what
to do next, run two flows (or a flow and a call) rather than one.`;

const ORDER = `## How to go about it

1. **\`flow_actions\`** — the actions you may compose, with every input and output port, and
   whether each is \`runnable\`.
2. **Write the flow**: the inputs you will pass, the outputs you want back, the steps between.
3. **\`flow_check\`** with \`source\` — compiles it and describes the steps without running
   anything. Errors come back as \`flow:LINE:COLUMN: message\`; fix and check again.
4. **\`flow_run\`** with \`source\` and \`inputs\` (an object keyed by input port: a list for a
   \`stream\` port, a single value otherwise). The answer is an object keyed by output port.`;

const RULES = `## Rules that decide whether a flow works

- **Declare small outputs.** Return the answer, the count, the few lines that matter — not the
  intermediate data the flow exists to keep away from you.
- **\`run\` runnable actions, \`call\` the others.** \`flow_actions\` says which: \`run\` executes the
  action on the gateway; \`call\` sends it back to the client that started the flow. Most actions
  are runnable, so \`run\` is the usual verb.
- **Only the actions \`flow_actions\` lists exist for you.** A flow naming any other is refused
  before it starts, and so is one naming a flow tool.
- **Say which outputs you ignore.** Unread outputs are drained anyway, but \`skip x.port\` (or
  \`skip x\`) makes it explicit; \`skip 1 x.lines\` drops the first value for every reader.
- **A failing step fails the flow** unless it is \`try run …\` / \`try call …\`; then read how it
  went with \`wait x\`, \`status x\` or \`x.ok\`, and decide.
- **Typed ports want typed values.** Build one with \`TAG{field: value}\` or convert with
  \`expr as TAG\`; \`to_chunk(value)\` makes the chunks a content list holds.
- **Fragments are not sentences.** \`| group EXPR\` collects values until EXPR holds of the last
  one: \`pieces | group ends-with(trim(it), [".", "?", "!"]) | map join(it, " ")\`.
- **\`| then\` orders two streams**: \`history | then question -> model.interactions\` sends all of
  the history first. Two pipes into one port otherwise interleave as values arrive.
- **Leave real computation to actions.** Expressions pick, compare, reshape and assemble values.
- **Bound every \`repeat\`** with \`until\`/\`while\` or \`max N\`; an unbounded one is refused.
- **\`fail\`, \`cancel\`, \`abort\` and \`log\` belong in an \`if\`, a loop, or carry \`after\`.** At the
  top of a flow they would run at once, so they are refused there.
- **Narration goes to the log.** \`log\`, \`logf\` and the \`| log\` stage write to the flow's log,
  which is not an output and costs nothing when unused.`;

const EXAMPLE = `## An example

The action names are illustrations; use what \`flow_actions\` returns.

\`\`\`
flow word-counts {
  describe "Count the words in each file and name the longest one."

  in  files:   string stream required "Paths of the files to read."
  out counts:  object stream "One {file, words} record per file."
  out longest: string "The file with the most words."

  found = node()
  for file in files parallel 4 {
    wc = run shell_execute(command: strformat("wc -w < %s", file))
    wc.output_lines | first 1 | map {"file": file, "words": number(trim(it))} -> found
  }
  found -> counts
  found | sort by it.words desc | first 1 | map it.file -> longest
}
\`\`\`

Run with \`inputs: {"files": ["a.txt", "b.txt"]}\`, it answers
\`{"counts": [{"file": "a.txt", "words": 120}, …], "longest": "a.txt"}\` — the per-file shell output
never reaches you.`;

/** The instructions, as Markdown, without front matter. */
export function skillBody(): string {
  return [
    '# Composing tools with A11 Flow',
    '',
    'Three tools let you hand the gateway a whole composition of its actions instead of calling them',
    'one by one: `flow_actions` (what you may compose), `flow_check` (does this flow say what I mean?)',
    'and `flow_run` (run it, get its outputs).',
    '',
    WHEN,
    '',
    ORDER,
    '',
    RULES,
    '',
    '## The language',
    '',
    languageReference(),
    '',
    EXAMPLE,
    '',
  ].join('\n');
}

/** The text to put into a system prompt. */
export function getSystemPrompt(): string {
  return skillBody();
}

export interface Skill {
  name: string;
  description: string;
  body: string;
}

/** The same instructions as an Agent Skill. */
export function getSkill(): Skill {
  return { name: SKILL_NAME, description: SKILL_DESCRIPTION, body: skillBody() };
}

/** The skill as a SKILL.md file: YAML front matter, then the body. */
export function renderSkillMarkdown(skill: Skill = getSkill()): string {
  return `---\nname: ${skill.name}\ndescription: ${JSON.stringify(skill.description)}\n---\n\n${skill.body}`;
}

/**
 * What each of the language's words does, in a sentence, for hover and completion. The words
 * themselves come from the vocabulary (src/flow/vocabulary.ts); keyword-docs.test.ts holds this
 * table to it, so a word added there without a sentence here fails.
 */
export const keywordDocs: Readonly<Record<string, string>> = {
  // statements
  run: 'Starts an action with a handler where the flow runs: `s = run action(port: value)`.',
  call: 'Starts an action served by the peer the flow came from (the page, for a flow run on the gateway).',
  try: 'Makes a failure readable instead of failing the flow: `s = try run …`, `try { … }`, `| try map …`.',
  let: 'Names one value of a stream: `let first = answers | first 1`.',
  advance: 'Moves a `let` name on to the next value of its stream.',
  skip: 'Reads and discards: `skip step.debug`, `skip 2 lines`, `skip a, b of step`.',
  wait: 'Waits for a step, node or race to finish: `wait step`, `wait first of a, b`.',
  drain: 'Marks a node finished and closes it.',
  abort: 'Ends a node the flow writes with a failure: `abort out not_found "gone"`.',
  cancel: 'Cancels a running step.',
  fail: 'Fails the flow (with a status code and message); needs a condition or `after`.',
  log: 'Writes a value to the flow’s log: `log warning x`.',
  logf: 'Writes a formatted line to the flow’s log: `logf "took %s" elapsed`.',
  if: 'Runs a block when a condition holds: `if x > 1 { … } else { … }`.',
  for: 'Runs a block for each value of a stream: `for hit in hits parallel 3 { … }`.',
  repeat: 'Runs a block again and again: `repeat n = 0 max 10 { … until n > 3 }`.',
  until: 'Inside a loop: stop after the pass in which the condition holds.',
  while: 'Inside a loop: go on while the condition holds.',
  nodes: 'A private node map: `nodes scratch { … }` keeps the values of its steps off the wire.',
  // clauses
  else: 'The block an `if` runs when its condition does not hold.',
  parallel: 'How many at once: `for … parallel 3`, `| map … parallel 4`.',
  unordered: 'After `parallel`: pass values on as they finish, not in order.',
  max: 'The most passes a `repeat` makes.',
  of: 'Names what a race or a skip is about: `wait first of a, b`, `skip x of step`.',
  by: 'The key a `sort` orders by: `| sort by it.score`.',
  desc: 'Sorts largest first.',
  into: 'After `try`: sends failures as status records to a node: `| try map f(it) into failures`.',
  // declarations
  flow: 'Declares a flow: `flow name { in …; out …; steps }`; `flow { … }` is a program’s entry flow.',
  struct: 'Declares a record type: `struct Hit { url: string required }`.',
  describe: 'The description of a flow or struct.',
  in: 'Declares an input port: `in question: string required "What to find out."`.',
  out: 'Declares an output port: `out answer: string stream`.',
  header: 'Reads a call header: `header "x-a11-llm-model" as model default "small"`.',
  as: 'Names a header (`header "x" as name`), or casts a value: `x as integer`.',
  default: 'The value a header or struct field takes when none is given.',
  stream: 'After a port type: the port carries any number of values, not one.',
  required: 'After a port or field type: a value must be given.',
  node: 'A node of the flow’s own: `said = node()`, or an existing one by id: `node(history)`.',
  // call modifiers
  tee: 'Binds a `run` step’s outputs as streams others can read too.',
  via: 'Runs a step’s nodes in a private node map: `via scratch`.',
  timeout: 'How long a step (or `wait`) may take: `timeout 30s`.',
  after: 'Starts only once the named steps or nodes have finished: `after said`.',
  with: 'Sets a header for the step: `with "x-a11-llm-model": model`.',
  id: 'Sets the nested action’s id: `id "turn-" + index`.',
  'forward headers': 'Copies the caller’s headers to the step: `forward headers "x-a11-llm-*"`.',
  // struct fields
  unique: 'After a list field’s type: no two items may be equal.',
  matching: 'After a text field’s type: it must match the regular expression.',
  'one of': 'After a field’s type: the value must be one of these constants.',
  // sources
  interleave: 'Several streams merged as values arrive: `interleave(a, b)`.',
  status: 'The status record of a finished step: `status step` → `{ok, code, number, message}`.',
  zip: 'Several streams read in step, one list per round: `zip(a, b)`.',
  // constants and operators
  true: 'The boolean true.',
  false: 'The boolean false.',
  null: 'No value.',
  it: 'The value a stage is looking at: `| where it.ok`.',
  and: 'Both conditions hold.',
  or: 'Either condition holds.',
  not: 'The condition does not hold.',
};

/** The sentence for a word (after folding an ALL-CAPS word), or undefined. */
export function keywordDoc(word: string): string | undefined {
  return keywordDocs[word] ?? keywordDocs[word.toLowerCase()];
}

/**
 * The syntax layer of Flow: `parseFlow` and the syntax tree it builds.
 */
export * from './ast';
export type { SyntaxProblem } from './problem';
export { parseFlow, sortProblems, type ParsedFlow } from './parse';
export { childrenOf, forEachNode, isExpression, isStatement } from './walk';
export { constantValue } from './constant';

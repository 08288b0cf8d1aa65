/**
 * Completion for Flow: keywords, stages and builtins from the vocabulary; the gateway's actions
 * (and the file's own flows) after `run`/`call`; an action's ports after `step.` and inside
 * `action(`; types after a port's `:`; names in scope everywhere else.
 */
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete';
import { builtins, constantWords, operatorWords, sourceWords, stages, statementWords, types } from '../../flow/vocabulary';
import { parseMimetype } from '../../wire/media';
import type { ComposableAction, ComposablePort } from '../gateway/composable';
import { cursorContext } from './context';
import { keywordDoc } from './keyword-docs';
import { knownActions, namesAt, syntaxOf, type ScopeName } from './knowledge';

/** What completion needs from the rest of the page: the actions the gateway offers. */
export interface CompletionWorld {
  actions(): readonly ComposableAction[];
}

function portType(port: ComposablePort): string {
  const { base, tag } = parseMimetype(port.type);
  return `${tag ?? base}${port.stream ? ' stream' : ''}${port.required ? ' required' : ''}`;
}

function portOption(port: ComposablePort, direction: 'input' | 'output', apply?: string): Completion {
  return {
    label: port.port,
    type: direction === 'output' ? 'property' : 'variable',
    detail: `${direction} · ${portType(port)}`,
    ...(port.description ? { info: port.description } : {}),
    ...(apply ? { apply } : {}),
    boost: direction === 'output' ? 1 : 0,
  };
}

function actionOption(action: ComposableAction): Completion {
  const required = action.inputs.filter((port) => port.required).map((port) => port.port);
  return {
    label: action.action,
    type: 'function',
    detail: action.runnable ? 'run' : 'call',
    info: [action.description, required.length ? `Required: ${required.join(', ')}.` : ''].filter(Boolean).join('\n\n'),
  };
}

function nameOption(name: ScopeName): Completion {
  return {
    label: name.name,
    type: name.kind === 'step' ? 'class' : name.kind === 'input' || name.kind === 'output' ? 'variable' : 'constant',
    detail: name.detail,
    ...(name.description ? { info: name.description } : {}),
    boost: 2,
  };
}

const keywordOptions = (words: readonly string[]): Completion[] =>
  words.map((word) => ({ label: word, type: 'keyword', ...(keywordDoc(word) ? { info: keywordDoc(word) } : {}) }));

// Boosted in listing order, so an empty `| ` shows them the way the vocabulary groups them.
const stageOptions: Completion[] = stages.map((stage, index) => ({
  label: stage.name,
  type: 'method',
  detail: stage.takes === 'none' ? '' : stage.takes,
  info: stage.summary,
  boost: stages.length - index,
}));

const builtinOptions: Completion[] = builtins.map((builtin) => ({
  label: builtin.name,
  type: 'function',
  detail: builtin.signature,
  info: builtin.summary,
  apply: `${builtin.name}(`,
}));

/** The tags (`a11.sdk.AudioBuffer`) the gateway's ports carry: types a port may be declared as. */
function registryTags(actions: readonly ComposableAction[]): string[] {
  const tags = new Set<string>();
  for (const action of actions) {
    for (const port of [...action.inputs, ...action.outputs]) {
      const tag = parseMimetype(port.type).tag;
      if (tag) tags.add(tag);
    }
  }
  return [...tags].sort();
}

export function flowCompletions(world: CompletionWorld): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const { state, pos } = context;
    const before = state.sliceDoc(Math.max(0, pos - 4000), pos);
    const where = cursorContext(before);
    if (where.kind === 'none') return null;
    const source = state.doc.toString();
    const file = syntaxOf(source);
    const actions = knownActions(file, world.actions());
    const from = pos - ('partial' in where ? where.partial.length : 0);

    switch (where.kind) {
      case 'member': {
        const step = namesAt(file, pos).find((name) => name.name === where.base);
        const action = step?.action ? actions.find((candidate) => candidate.action === step.action) : undefined;
        if (!action) return null;
        return {
          from,
          options: [...action.outputs.map((port) => portOption(port, 'output')), ...action.inputs.map((port) => portOption(port, 'input'))],
          validFor: /^[\w$-]*$/,
        };
      }
      case 'action':
        return { from, options: actions.map(actionOption), validFor: /^[\w$.-]*$/ };
      case 'stage':
        return { from, options: stageOptions, validFor: /^[\w-]*$/ };
      case 'argument': {
        const action = actions.find((candidate) => candidate.action === where.action);
        if (!action) return null;
        const open = action.inputs.filter((port) => !where.given.includes(port.port));
        return { from, options: open.map((port) => ({ ...portOption(port, 'input', `${port.port}: `), boost: port.required ? 3 : 1 })), validFor: /^[\w$]*$/ };
      }
      case 'type': {
        const structs = file.structs.map((struct) => ({ label: struct.name.text, type: 'type', detail: 'struct', info: struct.description }));
        const tags = registryTags(world.actions()).map((tag) => ({ label: tag, type: 'type', detail: 'registry type' }));
        return {
          from,
          options: [...types.map((type) => ({ label: type.name, type: 'type' })), ...structs, ...tags],
          validFor: /^[\w$.]*$/,
        };
      }
      case 'statement': {
        if (!context.explicit && where.partial.length === 0) return null;
        const names = namesAt(file, pos).map(nameOption);
        const inFlow = names.length > 0 || file.flows.some((flow) => pos > flow.range.from && pos < flow.range.to);
        const words = inFlow ? [...statementWords, 'in', 'out', 'header', 'describe'] : ['flow', 'struct'];
        return { from, options: [...keywordOptions(words), ...names], validFor: /^[\w$-]*$/ };
      }
      case 'expression': {
        if (!context.explicit && where.partial.length === 0) return null;
        const names = namesAt(file, pos).map(nameOption);
        return {
          from,
          options: [...names, ...builtinOptions, ...keywordOptions([...constantWords, ...operatorWords, ...sourceWords, 'node'])],
          validFor: /^[\w$-]*$/,
        };
      }
    }
  };
}

import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { A11_BIN, A11_MISSING, REFERENCE_DIR, REFERENCE_MISSING, referencePath } from '../../../test/support/reference';
import { namesIn, planGraph, type PlanFlowLike } from './graph';
import { layoutPlan } from './layout';

/** The plan `flow_check` gives for the microphone example, cut to what the graph reads. */
const listen: PlanFlowLike = {
  flow: 'listen-and-answer',
  inputs: { asr: { type: 'object', unary: true, required: false } },
  outputs: {
    sentence: { type: 'string', unary: true, required: false },
    reply: { type: 'string', unary: false, required: false },
  },
  steps: [
    { step: 'call', label: 'mic', action: 'capture_audio', mode: 'call', timeout: 120 },
    { step: 'pipe', label: '{...} -> mic.options', from: '{...}', to: 'mic.options' },
    { step: 'skip', label: 'mic.events', of: 'mic.events' },
    { step: 'run', label: 'heard', action: 'transcribe_audio', mode: 'run' },
    { step: 'pipe', label: 'mic.audio | packb -> heard.audio', from: 'mic.audio | packb', to: 'heard.audio' },
    { step: 'pipe', label: 'asr -> heard.asr_options', from: 'asr', to: 'heard.asr_options' },
    { step: 'pipe', label: '… -> said', from: 'heard.transcription_pieces | map trim(it) | where len(it) > 0 | first 1', to: 'said' },
    { step: 'pipe', label: 'said -> sentence', from: 'said', to: 'sentence' },
    { step: 'pipe', label: '{...} -> mic.control_events', from: '{...}', to: 'mic.control_events', after: ['said'] },
    { step: 'run', label: 'model', action: 'interact_with_llm', mode: 'run' },
    { step: 'pipe', label: '…', from: 'said | map a11.sdk.Interaction{...}', to: 'model.interactions' },
    { step: 'pipe', label: 'model.text_output -> reply', from: 'model.text_output', to: 'reply' },
    {
      step: 'for',
      label: 'for',
      of: 'said',
      body: [{ step: 'pipe', label: 'line.text -> reply', from: 'line.text | truncate 20', to: 'reply' }],
    },
  ],
};

describe('plan graph', () => {
  it('reads references out of expression text, not stages, calls, types or words', () => {
    expect(namesIn('mic.audio | packb')).toEqual(['mic.audio']);
    expect(namesIn('earlier | then asked')).toEqual(['earlier', 'asked']);
    expect(namesIn('said | map a11.sdk.Interaction{...}')).toEqual(['said']);
    expect(namesIn('strformat("ls %s", dir) | where it and true')).toEqual(['dir']);
    expect(namesIn('"a -> b" + starts-with')).toEqual(['starts-with']);
  });

  it('draws ports, steps and nodes as vertices and pipes as labelled edges', () => {
    const graph = planGraph(listen);
    const titles = graph.vertices.map((vertex) => `${vertex.kind}:${vertex.title}`);
    expect(titles).toEqual(expect.arrayContaining(['input:asr', 'output:sentence', 'output:reply', 'action:mic', 'action:heard', 'action:model', 'node:said', 'control:for']));
    const edge = (from: string, to: string) =>
      graph.edges.find((candidate) => candidate.from === from && candidate.to === to && candidate.kind === 'pipe');
    expect(edge('step:0', 'step:3')?.label).toBe('audio | packb → audio');
    expect(edge('in:asr', 'step:3')?.label).toBe('→ asr_options');
    expect(edge('node:said', 'out:sentence')).toBeDefined();
    expect(edge('step:9', 'out:reply')?.label).toBe('text_output');
    expect(graph.edges.some((candidate) => candidate.kind === 'after' && candidate.from === 'node:said' && candidate.to === 'step:0')).toBe(true);
    // The loop variable `line` comes from the loop.
    expect(edge('step:12', 'out:reply')).toBeDefined();
    expect(graph.vertices.find((vertex) => vertex.title === 'mic')?.skipped).toEqual(['events']);
    expect(graph.vertices.filter((vertex) => vertex.kind === 'constant')).toHaveLength(2);
  });

  it('lays out left to right without overlaps, inputs first and outputs last', () => {
    const layout = layoutPlan(planGraph(listen));
    checkLayout(layout);
  });
});

function checkLayout(layout: ReturnType<typeof layoutPlan>) {
  const columns = Math.max(...layout.vertices.map((vertex) => vertex.column));
  for (const vertex of layout.vertices) {
    if (vertex.kind === 'input') expect(vertex.column).toBe(0);
    if (vertex.kind === 'output') expect(vertex.column).toBe(columns);
    expect(vertex.x + vertex.width).toBeLessThanOrEqual(layout.width);
    expect(vertex.y + vertex.height).toBeLessThanOrEqual(layout.height);
  }
  for (const a of layout.vertices) {
    for (const b of layout.vertices) {
      if (a === b) continue;
      const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      expect(apart, `${a.title} overlaps ${b.title}`).toBe(true);
    }
  }
  for (const edge of layout.edges) {
    expect(edge.path).toMatch(/^M[\d.]+,[\d.]+ C/);
    expect(Number.isFinite(edge.labelX) && Number.isFinite(edge.labelY)).toBe(true);
  }
}

describe.skipIf(!REFERENCE_DIR || !A11_BIN)(`plan graph of every reference flow${!REFERENCE_DIR ? ` (${REFERENCE_MISSING})` : !A11_BIN ? ` (${A11_MISSING})` : ''}`, () => {
  it.each(REFERENCE_DIR && A11_BIN ? readdirSync(referencePath('flows')).filter((name) => !name.includes('broken')) : [])(
    '%s draws with an edge for every pipe whose ends it knows',
    (name) => {
      const described = JSON.parse(execFileSync(A11_BIN!, ['flow', 'describe', '--format', 'json', referencePath('flows', name)], { encoding: 'utf8' })) as {
        flows: PlanFlowLike[];
      };
      for (const flow of described.flows) {
        const graph = planGraph(flow);
        const ids = new Set(graph.vertices.map((vertex) => vertex.id));
        for (const edge of graph.edges) expect(ids.has(edge.from) && ids.has(edge.to)).toBe(true);
        const pipesToOutputs = JSON.stringify(flow.steps).match(/"to":"([^".]+)"/g)?.length ?? 0;
        if (pipesToOutputs > 0) expect(graph.edges.length).toBeGreaterThan(0);
        checkLayout(layoutPlan(graph));
      }
    },
  );
});

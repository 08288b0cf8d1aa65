import { DEADLINE_HEADER } from '../../wire/action.js';

/** Header names the gateway's actions read, spelled once. */
export const Header = {
  deadline: DEADLINE_HEADER,
  allowedLlmActions: 'x-a11-allowed-llm-actions',
  shellId: 'x-a11-shell-id',
  llmProvider: 'x-a11-llm-provider',
  llmModel: 'x-a11-llm-model',
  llmApiKey: 'x-a11-llm-api-key',
  llmBaseUrl: 'x-a11-llm-base-url',
  otelBaggage: 'x-otel-baggage',
  otelTraceparent: 'x-otel-traceparent',
  otelTracestate: 'x-otel-tracestate',
} as const;

type HeaderDeclarations = Record<string, { description?: string }>;

/** What actions that may be called as model tools declare: the allow-list, the deadline, tracing. */
export function toolActionHeaders(allowListDescription: string): HeaderDeclarations {
  return {
    [Header.allowedLlmActions]: { description: allowListDescription },
    [Header.deadline]: { description: 'Deadline for execution in milliseconds since epoch.' },
    [Header.otelBaggage]: { description: 'OpenTelemetry baggage header.' },
    [Header.otelTraceparent]: { description: 'OpenTelemetry traceparent header.' },
    [Header.otelTracestate]: { description: 'OpenTelemetry tracestate header.' },
  };
}

/** The deadline header as the audio actions describe it: they stop gracefully when it passes. */
export const gracefulDeadlineHeader: HeaderDeclarations = {
  [Header.deadline]: {
    description:
      "Absolute execution deadline: a base-10 count of milliseconds since the Unix epoch, or nanoseconds with an 'ns' suffix. The action stops gracefully once it is reached.",
  },
};

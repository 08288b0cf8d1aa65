/**
 * Outcomes of actions, streams and calls: the canonical status codes (the same numbers gRPC uses),
 * shared by the wire, the runtime and every action.
 */
export const StatusCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type StatusCodeName = keyof typeof StatusCode;

const NAMES: readonly StatusCodeName[] = Object.keys(StatusCode) as StatusCodeName[];

/** `NOT_FOUND` for 5; `UNKNOWN` for a number outside the canonical range. */
export function statusCodeName(code: number): StatusCodeName {
  return NAMES[code] ?? 'UNKNOWN';
}

export type StatusDetail = Record<string, unknown>;

/** An immutable outcome: a code, a human-readable message and optional structured details. */
export class Status {
  static readonly OK = new Status(StatusCode.OK);

  constructor(
    readonly code: number,
    readonly message: string = '',
    readonly details: readonly StatusDetail[] = [],
  ) {}

  get ok(): boolean {
    return this.code === StatusCode.OK;
  }

  get codeName(): StatusCodeName {
    return statusCodeName(this.code);
  }

  /** `NOT_FOUND: no such action 'x'`, or `OK`. */
  toString(): string {
    return this.message ? `${this.codeName}: ${this.message}` : this.codeName;
  }

  /** Throws this status as a {@link StatusError} unless it is OK. */
  throwIfError(): void {
    if (!this.ok) throw new StatusError(this);
  }

  /** The status an arbitrary thrown value stands for: its own if it carries one, else UNKNOWN. */
  static fromError(error: unknown): Status {
    if (error instanceof StatusError) return error.status;
    if (isAbortError(error)) return new Status(StatusCode.CANCELLED, errorMessage(error) || 'Cancelled');
    return new Status(StatusCode.UNKNOWN, errorMessage(error));
  }
}

/** A non-OK status as an exception, for code that would rather throw than return outcomes. */
export class StatusError extends Error {
  readonly status: Status;

  constructor(status: Status);
  constructor(code: number, message: string, details?: readonly StatusDetail[]);
  constructor(statusOrCode: Status | number, message?: string, details?: readonly StatusDetail[]) {
    const status = statusOrCode instanceof Status ? statusOrCode : new Status(statusOrCode, message, details);
    super(status.toString());
    this.name = 'StatusError';
    this.status = status;
  }

  get code(): number {
    return this.status.code;
  }
}

/** Throws a {@link StatusError} with the named code. */
export function fail(code: StatusCodeName, message: string, details?: readonly StatusDetail[]): never {
  throw new StatusError(StatusCode[code], message, details);
}

function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : String(error);
}

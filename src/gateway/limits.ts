/** What one gateway process lets its clients use at once. */
export interface GatewayLimits {
  /** Open A11 connections. */
  maxConnections: number;
  /** Calls one connection may have running at once; more are refused with RESOURCE_EXHAUSTED. */
  maxCallsPerConnection: number;
  /** Largest WebSocket message (one packet) accepted, in bytes. */
  maxPacketBytes: number;
  /** Largest reassembled A11 message, in bytes. */
  maxMessageBytes: number;
  /** Bytes a connection may have queued for sending before its writers wait. */
  sendBufferBytes: number;
}

export const DEFAULT_LIMITS: GatewayLimits = {
  maxConnections: 1024,
  maxCallsPerConnection: 512,
  maxPacketBytes: 1 << 20,
  maxMessageBytes: 32 << 20,
  sendBufferBytes: 1 << 20,
};

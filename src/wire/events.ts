/** What a wire proxy tells the harness as it happens (the engine copies these into the history). */
import type { WireCommand } from './command.ts';
import type { WireFaultRecord } from './records.ts';

/** What became of one command on its way to the store. */
export type CommandFate = 'forwarded' | 'held' | 'queued-behind-hold' | 'blackholed' | 'gated' | 'delayed';

export type WireEvent =
  | { type: 'connect'; holder: string; connection: number; atMs: number }
  | { type: 'close'; holder: string; connection: number; atMs: number; how: string }
  | { type: 'command'; holder: string; connection: number; atMs: number; command: WireCommand; fate: CommandFate }
  /** The store's whole reply to a command reached the proxy: the store ran it (whether or not the holder gets the reply). */
  | { type: 'reply'; holder: string; connection: number; atMs: number; command: WireCommand }
  | { type: 'opaque'; holder: string; connection: number; atMs: number; reason: string }
  | { type: 'fault'; phase: 'landed' | 'lifted'; record: WireFaultRecord };

export type WireListener = (event: WireEvent) => void;

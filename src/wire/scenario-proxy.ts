/**
 * A holder's wire proxy inside a run: the proxy runs on the history's clock, every wire fault it
 * lands goes into the run's fault log (kind "wire": which connections, which command, from when to
 * when), and connections and every command a fault stopped or slowed go into the history.
 */
import type { History } from '../core/history.ts';
import type { FaultLog, FaultRecord } from '../core/fault-log.ts';
import { WireProxy } from './proxy.ts';
import type { WireFaultRecord } from './records.ts';

function detailOf(record: WireFaultRecord): Record<string, unknown> {
  return {
    wireFault: record.kind,
    connections: record.connections,
    ...(record.command !== undefined ? { command: record.command } : {}),
    commandsAffected: record.commandsAffected,
    ...(record.sampleCommands.length ? { sampleCommands: record.sampleCommands } : {}),
    ...(record.refusedConnections ? { refusedConnections: record.refusedConnections } : {}),
    ...(record.note !== undefined ? { note: record.note } : {}),
  };
}

export async function startScenarioProxy(
  holder: string,
  storeUrl: string,
  history: History,
  faults: FaultLog,
): Promise<WireProxy> {
  const proxy = await WireProxy.start({ holder, storeUrl, clock: () => history.now() });
  const applied = new Map<number, FaultRecord>();
  proxy.on((event) => {
    switch (event.type) {
      case 'fault': {
        const { record } = event;
        if (event.phase === 'landed') {
          const action =
            record.kind === 'hold'
              ? `held ${record.command ?? '?'} at the wire`
              : record.kind === 'hold-reply'
                ? `held the reply to ${record.command ?? '?'} at the wire`
                : record.what;
          applied.set(record.id, faults.apply('wire', holder, action, detailOf(record)));
        } else {
          const fault = applied.get(record.id);
          if (fault) faults.lift(fault, detailOf(record));
          else
            history.add('wire', holder, {
              text: `${record.what}: never landed`,
              ...(record.note ? { note: record.note } : {}),
            });
        }
        break;
      }
      case 'command':
        // A gate's commands are counted (and sampled) in its record: it may stall thousands.
        if (event.fate !== 'forwarded' && event.fate !== 'gated')
          history.add('wire', holder, { connection: event.connection, command: event.command.text, fate: event.fate });
        break;
      case 'connect':
        history.add('wire', holder, { connection: event.connection, text: 'connected through its wire proxy' });
        break;
      case 'close':
        history.add('wire', holder, { connection: event.connection, text: `connection closed: ${event.how}` });
        break;
      case 'opaque':
        history.add('wire', holder, { connection: event.connection, text: `stream no longer parsed: ${event.reason}` });
        break;
    }
  });
  return proxy;
}

/** Newline-delimited JSON over a TCP socket: one message per line, both ways. */
import { createConnection, createServer, type Socket } from 'node:net';
import type { Message, Transport } from './channel.ts';

/** Calls `onMessage` for every whole line the socket receives. */
function readMessages(socket: Socket, onMessage: (message: Message) => void): void {
  let pending = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      if (line.trim()) onMessage(JSON.parse(line) as Message);
    }
  });
}

function send(socket: Socket, message: Message): void {
  if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
}

export const ndjsonTransport: Transport = {
  framing: 'ndjson',
  dial(host, port, onMessage, onClose) {
    const socket = createConnection({ host, port });
    socket.on('error', () => undefined);
    socket.on('close', onClose);
    readMessages(socket, onMessage);
    return {
      send: (message) => send(socket, message),
      close: () => socket.destroy(),
      get closed() {
        return socket.destroyed;
      },
    };
  },
  async serve(host, port, onMessage) {
    const server = createServer((socket) => {
      socket.on('error', () => undefined);
      readMessages(socket, (m) => onMessage(m, (reply) => send(socket, reply)));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return { close: () => server.close() };
  },
};

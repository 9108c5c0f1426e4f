/** JSON messages in WebSocket text frames (the `ws` package): a node serves a WebSocket endpoint, peers and holders dial it. */
import { WebSocket, WebSocketServer } from 'ws';
import type { Message, Transport } from './channel.ts';

export const websocketTransport: Transport = {
  framing: 'websocket',
  dial(host, port, onMessage, onClose) {
    const socket = new WebSocket(`ws://${host}:${port}/`);
    // Messages sent before the handshake completed wait for it, in order.
    const early: string[] = [];
    let closed = false;
    socket.on('open', () => early.splice(0).forEach((text) => socket.send(text)));
    socket.on('message', (data) => onMessage(JSON.parse(data.toString()) as Message));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      onClose();
    });
    return {
      send(message) {
        const text = JSON.stringify(message);
        if (socket.readyState === WebSocket.OPEN) socket.send(text);
        else if (socket.readyState === WebSocket.CONNECTING) early.push(text);
      },
      close: () => socket.terminate(),
      get closed() {
        return closed;
      },
    };
  },
  async serve(host, port, onMessage) {
    const server = new WebSocketServer({ host, port });
    server.on('connection', (socket) => {
      socket.on('error', () => undefined);
      socket.on('message', (data) =>
        onMessage(JSON.parse(data.toString()) as Message, (reply) => {
          if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(reply));
        }),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.once('listening', () => resolve());
    });
    return { close: () => server.close() };
  },
};

'use strict';
// A small JSON-RPC 2.0 connection with LSP base-protocol framing.
// It never requires 'vscode': the extension and the tests share it.

const HEADER_END = Buffer.from('\r\n\r\n');

class RpcError extends Error {
  constructor(error) {
    super(error && typeof error.message === 'string' ? error.message : 'The Carrel server answered with an error.');
    this.code = error && error.code;
    this.data = error && error.data;
    this.reason = error && error.data && error.data.reason;
  }
}

// Splits a byte stream into message bodies. Kept apart from the connection
// so the framing can be tested with bytes arriving in any chunking.
class FrameReader {
  constructor(onBody, onBadFrame) {
    this.buffer = Buffer.alloc(0);
    this.onBody = onBody;
    this.onBadFrame = onBadFrame || (() => {});
  }

  push(chunk) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      const end = this.buffer.indexOf(HEADER_END);
      if (end < 0) return;
      const header = this.buffer.subarray(0, end).toString('ascii');
      const match = /(?:^|\r\n)content-length:\s*(\d+)\s*(?:\r\n|$)/i.exec(header);
      if (!match) {
        this.onBadFrame(header);
        this.buffer = this.buffer.subarray(end + HEADER_END.length);
        continue;
      }
      const length = Number(match[1]);
      const start = end + HEADER_END.length;
      if (this.buffer.length < start + length) return;
      const body = this.buffer.subarray(start, start + length).toString('utf8');
      this.buffer = this.buffer.subarray(start + length);
      this.onBody(body);
    }
  }
}

function frame(message) {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

// One side of a conversation. `trace(direction, text)` sees every raw body,
// which is what the "Show Log" output channel prints.
class Connection {
  constructor(readable, writable, trace) {
    this.writable = writable;
    this.trace = trace || (() => {});
    this.nextId = 1;
    this.pending = new Map();
    this.requestHandlers = new Map();
    this.notificationHandlers = new Map();
    this.closed = false;
    this.reader = new FrameReader((body) => this.receive(body),
      (header) => this.trace('!', `malformed frame header skipped: ${JSON.stringify(header)}`));
    readable.on('data', (chunk) => this.reader.push(chunk));
    readable.on('close', () => this.close(new Error('The Carrel server stopped.')));
  }

  onRequest(method, handler) { this.requestHandlers.set(method, handler); }
  onNotification(method, handler) { this.notificationHandlers.set(method, handler); }

  // Returns the promise of the answer; `promise.id` lets a caller cancel it.
  // `answered()` is called as the answer is read, before any message read
  // after it is dispatched: a promise's callers run only later.
  request(method, params, { answered } = {}) {
    const id = this.nextId++;
    const promise = new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error('The Carrel server is not running.'));
      this.pending.set(id, { resolve, reject, method, answered });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
    promise.id = id;
    return promise;
  }

  notify(method, params) {
    if (this.closed) return;
    this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  cancel(id) { this.notify('$/cancelRequest', { id }); }

  send(message) {
    const text = JSON.stringify(message);
    this.trace('→', text);
    try {
      this.writable.write(frame(message));
    } catch (error) {
      this.close(error);
    }
  }

  receive(body) {
    this.trace('←', body);
    let message;
    try {
      message = JSON.parse(body);
    } catch (error) {
      this.trace('!', `unparsable body: ${error.message}`);
      return;
    }
    if (!message || typeof message !== 'object') return;
    if (message.method !== undefined && message.id !== undefined) return this.answer(message);
    if (message.method !== undefined) return this.dispatchNotification(message);
    const waiter = this.pending.get(message.id);
    if (!waiter) return;
    this.pending.delete(message.id);
    if (waiter.answered) waiter.answered();
    if (message.error) waiter.reject(new RpcError(message.error));
    else waiter.resolve(message.result === undefined ? null : message.result);
  }

  dispatchNotification(message) {
    const handler = this.notificationHandlers.get(message.method);
    if (!handler) return;
    try {
      handler(message.params);
    } catch (error) {
      this.trace('!', `notification handler for ${message.method} failed: ${error && error.stack}`);
    }
  }

  async answer(message) {
    const handler = this.requestHandlers.get(message.method);
    if (!handler) {
      this.send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Unhandled method ${message.method}` } });
      return;
    }
    try {
      const result = await handler(message.params);
      this.send({ jsonrpc: '2.0', id: message.id, result: result === undefined ? null : result });
    } catch (error) {
      this.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: String(error && error.message || error) } });
    }
  }

  close(error) {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.pending.values()) waiter.reject(error || new Error('The Carrel server stopped.'));
    this.pending.clear();
  }
}

module.exports = { Connection, FrameReader, RpcError, frame };

#!/usr/bin/env node
// Head-of-line blocking: exported by delaylab (delaylab export code --lang node).
//
// Two orders with different per-message TTLs (expiration) share one DLX wait queue,
// order.delay.queue, which has no consumer and dead-letters through order.dlx.exchange
// (routing key order.timeout) into order.dlx.queue. A waits 30 min, B, published a minute
// later, only 5 min.
//
// Watch: B (5 min) is delivered at 30:00, together with A, not at 6:00: only the head of a
// queue expires. B's late_ms is 1440000 (24 min). While it waits, the already expired B
// still counts in order.delay.queue's ready messages. B's x-death entry keeps
// original-expiration "300000" and the delivered copy has no expiration property any more.
//
// Run: ./run.sh AMQP_URL [TIME_SCALE] (node with amqplib from npm; a test broker: the
// program declares and deletes its own objects).
//
// Every exchange and queue gets a unique prefix (dl-<random>-), so a run never touches what
// already lives on the broker; everything declared is deleted at the end. TIME_SCALE
// multiplies every duration (action times, TTLs, handle times); the report divides again,
// so its times are scenario ms. At the end the program prints what it saw as the run
// contract JSON of `delaylab run --format json`; `delaylab diff` compares the two.
//
// Nothing left out: the program does everything the scenario does.

'use strict';

const amqp = require('amqplib');

const NAME = "Head-of-line blocking";
const END_MS = 2400000; // the scenario's end (until)
const GRACE_MS = 25; // real ms waited after it for the broker's last steps
const QUEUES = ["order.delay.queue", "order.dlx.queue"];
const EXCHANGES = ["order.delay.exchange", "order.dlx.exchange"];
const LEFT_OUT = [];

// ---------------------------------------------------------------- the topology

async function declareTopology(run) {
  await run.step((ch) => ch.assertExchange(n("order.delay.exchange"), "direct", { durable: true, autoDelete: false, internal: false, arguments: {} }));
  await run.step((ch) => ch.assertExchange(n("order.dlx.exchange"), "direct", { durable: true, autoDelete: false, internal: false, arguments: {} }));
  // A wait queue: no consumer reads it, on purpose. Messages sit here until their TTL runs
  // out, then the broker dead-letters them to the exchange below. Only the message at the
  // head of a queue expires, so a short TTL waits behind a long one (head-of-line
  // blocking).
  await run.step((ch) => ch.assertQueue(n("order.delay.queue"), { durable: true, exclusive: false, autoDelete: false, arguments: {
    // x-dead-letter-exchange: where expired, rejected and overflowed messages are
    // republished.
    "x-dead-letter-exchange": n("order.dlx.exchange"),
    // x-dead-letter-routing-key: replaces the message's routing key when it is
    // dead-lettered.
    "x-dead-letter-routing-key": "order.timeout",
  } }));
  await run.step((ch) => ch.assertQueue(n("order.dlx.queue"), { durable: true, exclusive: false, autoDelete: false, arguments: {} }));
  await run.step((ch) => ch.bindQueue(n("order.delay.queue"), n("order.delay.exchange"), "order.create", {}));
  await run.step((ch) => ch.bindQueue(n("order.dlx.queue"), n("order.dlx.exchange"), "order.timeout", {}));
}

// ---------------------------------------------------------------- the consumers

async function startConsumers(run) {
  // Manual acks: a delivered message stays unacked (and does not expire) until the consumer
  // acks, rejects or nacks it.
  // prefetch (basic.qos): at most this many unacked messages at a time on this consumer.
  await run.consume(new Consumer("closer", "order.dlx.queue", { autoAck: false, prefetch: 10, handleMs: 100, outcome: fixed("ack"),
    fromMs: 0, toMs: null }));
}

// ---------------------------------------------------------------- the timed actions

function timedActions(run) {
  // [at ms, is a repeat, action index, run number, what], sorted by (time, repeat run > 1,
  // action index, run): the order in which the simulation fires them.
  const plan = [];
  // actions[0] at 0 ms
  // Publisher confirms: the broker acks each publish once it has taken it; the program
  // waits for each ack, and a mandatory message that cannot be routed comes back before it.
  // expiration is a string of milliseconds (an AMQP shortstr), not a number: "300000". The
  // broker parses it strictly at publish; a bad value closes the channel with 406.
  plan.push([0, 0, 0, 1, () => run.publish(n("order.delay.exchange"), "order.create", "A", {
    expiration: ttl("1800000"),
    deliveryMode: 2,
  })]);
  // actions[1] at 60000 ms
  plan.push([60000, 0, 1, 1, () => run.publish(n("order.delay.exchange"), "order.create", "B", {
    expiration: ttl("300000"),
  })]);
  return plan;
}

// x-delaylab-id: only for the report (when was a delivered message published); removed from
// the output.
// ---------------------------------------------------------------- the run (same in every export)

const SCALE = Number(process.env.TIME_SCALE || '1') > 0 ? Number(process.env.TIME_SCALE || '1') : 1;
const PREFIX = 'dl-' + require('crypto').randomBytes(4).toString('hex') + '-';
const ID_HEADER = 'x-delaylab-id';
const DELIVERY_TIME = 'x-opt-delivery-time';
// Scaled expiration strings -> as the scenario wrote them (for the report).
const TTL_WRITTEN = new Map();
// Wall-clock Unix ms at the scenario's 0:00 (set when the run starts): the scenario's
// times (x-opt-delivery-time) are offsets from it.
let START_MS = 0;

/** x-opt-delivery-time as a long: Unix ms, the program's start plus the scenario's time. */
function deliveryTime(v) {
  return { '!': 'long', value: START_MS + ms(v) };
}

/** x-opt-delivery-time as an AMQP timestamp (whole seconds), from the scenario's seconds. */
function deliveryTimeS(v) {
  return { '!': 'timestamp', value: Math.floor((START_MS + ms(v * 1000)) / 1000) };
}

/** A delivered header as the simulation reports it: x-opt-delivery-time back in the
 *  scenario's time, a timestamp or a decimal in the typed form, the rest plain. */
function headerValue(key, v) {
  if (v && v['!'] === 'timestamp') {
    const secs = Number(v.value);
    // Sent truncated to whole seconds: rounded up again (exact at TIME_SCALE 1).
    return { $timestamp: key === DELIVERY_TIME ? Math.ceil((secs * 1000 - START_MS) / SCALE / 1000) : secs };
  }
  if (v && v['!'] === 'decimal') {
    const digits = String(v.value.digits).padStart(v.value.places + 1, '0');
    const cut = digits.length - v.value.places;
    return { $decimal: v.value.places === 0 ? digits : digits.slice(0, cut) + '.' + digits.slice(cut) };
  }
  if (key === DELIVERY_TIME && typeof v === 'number') return Math.round((v - START_MS) / SCALE);
  return plain(v);
}

/** The broker-side name of a scenario exchange or queue (built-in names stay). */
function n(name) {
  return name === '' || name.startsWith('amq.') ? name : PREFIX + name;
}

/** Scenario ms -> real ms under TIME_SCALE; a positive duration stays >= 1 ms. */
function ms(d) {
  return SCALE === 1 || d <= 0 ? d : Math.max(1, Math.round(d * SCALE));
}

/** An AMQP signedint (amqplib would pick the smallest type for a small number). */
function i32(v) {
  return { '!': 'int', value: v };
}

/** An AMQP long. */
function i64(v) {
  return { '!': 'long', value: v };
}

/** An expiration string of ms, scaled; still a string (the broker wants a shortstr).
 *  readAs: the ms the broker reads from a string such as "+500" or "0500". */
function ttl(expiration, readAs) {
  if (SCALE === 1) return expiration;
  const sent = String(ms(readAs === undefined ? Number(expiration) : readAs));
  TTL_WRITTEN.set(sent, expiration);
  return sent;
}

const fixed = (o) => () => o;
/** The k-th delivery gets the k-th outcome; the last one then repeats. */
const sequence = (...os) => (k) => os[Math.min(k, os.length - 1)];
const weighted = (...pairs) => () => {
  const total = pairs.reduce((s, [, w]) => s + w, 0);
  let u = Math.random() * total;
  for (const [o, w] of pairs) {
    if (u < w) return o;
    u -= w;
  }
  return pairs[pairs.length - 1][0];
};

const unmap = (s) => s.split(PREFIX).join('');

/** A value the broker hands back, as JSON, with the prefix taken off names. */
function plain(v) {
  if (typeof v === 'string') return unmap(v);
  if (Buffer.isBuffer(v)) return unmap(v.toString('utf8'));
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') {
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = plain(x);
    return out;
  }
  return v === undefined ? null : v;
}

/** The reply code and text of a broker error (amqplib puts the text in its message). */
function brokerError(e) {
  const m = /with message "(.*)"$/s.exec(e.message || '');
  if (e.code && m) {
    const scope = /^Connection closed/.test(e.message) ? 'connection' : 'channel';
    return { code: e.code, text: unmap(m[1]), scope };
  }
  return { code: 0, text: 'client: ' + e.message, scope: 'client' };
}

const sleep = (msReal) => new Promise((r) => setTimeout(r, Math.max(0, msReal)));

class Consumer {
  constructor(name, queue, { autoAck, prefetch, handleMs, outcome, fromMs, toMs }) {
    Object.assign(this, { name, queue, autoAck, prefetch, handleMs, outcome, fromMs, toMs });
    this.ch = null;
    this.count = 0;
    this.held = 0;
    this.closed = false;
  }
}

/** One run: a connection for the actions (one confirm channel, reopened after a broker
 *  error), one for the consumers (a channel each); what was seen. */
class Run {
  constructor(url) {
    this.url = url;
    this.t0 = null;
    this.deliveries = [];
    this.returned = [];
    this.errors = [];
    this.nacked = [];
    this.publishedAt = [];
    this.consumers = [];
    this.ch = null;
  }

  async open() {
    this.conn = await this.connect();
    this.cconn = await this.connect();
  }

  async connect() {
    const c = await amqp.connect(this.url);
    c.on('error', () => {}); // recorded where the failing call is awaited
    return c;
  }

  nowMs() {
    return this.t0 === null ? 0 : Math.round(Number(process.hrtime.bigint() - this.t0) / 1e6 / SCALE);
  }

  /** Real ms from now until scenario time atMs. */
  until(atMs) {
    return atMs * SCALE - Number(process.hrtime.bigint() - this.t0) / 1e6;
  }

  async channel() {
    if (this.connClosed) {
      this.conn = await this.connect();
      this.connClosed = false;
      this.ch = null;
    }
    if (this.ch === null) {
      const ch = await this.conn.createConfirmChannel();
      ch.on('error', (e) => { this.lastError = e; });
      ch.on('close', () => { if (this.ch === ch) this.ch = null; });
      ch.on('return', (m) => this.returned.push({ body: m.content.toString('utf8'), at_ms: this.nowMs(),
        code: m.fields.replyCode, text: m.fields.replyText }));
      this.conn.once('close', () => { this.connClosed = true; });
      this.ch = ch;
    }
    return this.ch;
  }

  error(e, body) {
    const rec = { at_ms: this.nowMs(), ...brokerError(e) };
    if (body !== undefined) rec.body = body;
    this.errors.push(rec);
    if (rec.scope === 'connection') this.connClosed = true;
    this.ch = null;
  }

  /** Runs f(channel); a broker error is recorded (the next step gets a new channel). */
  async step(f, body) {
    try {
      return await f(await this.channel());
    } catch (e) {
      this.error(e, body);
      return null;
    }
  }

  /** basic.publish in confirm mode: waits for the ack; a return (312) or nack is recorded. */
  async publish(exchange, routingKey, body, options) {
    const headers = { ...(options.headers || {}), [ID_HEADER]: String(this.publishedAt.length) };
    this.publishedAt.push(this.nowMs());
    try {
      const ch = await this.channel();
      await new Promise((resolve, reject) => {
        ch.once('close', () => reject(this.lastError || new Error('channel closed')));
        ch.publish(exchange, routingKey, Buffer.from(body, 'utf8'), { ...options, headers }, (err) => {
          if (!err) return resolve();
          // A nack, or the channel closing under the publish (its error comes just after).
          setTimeout(() => {
            if (this.lastError) return reject(this.lastError);
            this.nacked.push({ body, at_ms: this.nowMs() });
            resolve();
          }, 20);
        });
      });
    } catch (e) {
      this.error(e, body);
    }
    this.lastError = null;
  }

  /** basic.get with auto-ack: takes the head of the queue, if any. */
  async get(queue) {
    const m = await this.step((ch) => ch.get(n(queue), { noAck: true }));
    if (m) this.record(queue, 'basic.get', m);
  }

  record(queue, consumer, m) {
    const headers = {};
    for (const [k, v] of Object.entries(m.properties.headers || {})) headers[k] = headerValue(k, v);
    const id = headers[ID_HEADER];
    delete headers[ID_HEADER];
    const published = typeof id === 'string' && /^[0-9]+$/.test(id) && Number(id) < this.publishedAt.length
      ? this.publishedAt[Number(id)] : null;
    const pr = m.properties;
    const p = {};
    const put = (k, v) => { if (v !== undefined && v !== null) p[k] = typeof v === 'string' ? unmap(v) : v; };
    put('expiration', pr.expiration);
    put('delivery_mode', pr.deliveryMode);
    put('priority', pr.priority);
    put('message_id', pr.messageId);
    put('correlation_id', pr.correlationId);
    put('content_type', pr.contentType);
    put('content_encoding', pr.contentEncoding);
    put('reply_to', pr.replyTo);
    put('timestamp', pr.timestamp);
    put('type', pr.type);
    put('user_id', pr.userId);
    put('app_id', pr.appId);
    if (TTL_WRITTEN.has(p.expiration)) p.expiration = TTL_WRITTEN.get(p.expiration);
    for (const d of Array.isArray(headers['x-death']) ? headers['x-death'] : []) {
      if (d && TTL_WRITTEN.has(d['original-expiration'])) d['original-expiration'] = TTL_WRITTEN.get(d['original-expiration']);
    }
    const at = this.nowMs();
    const body = m.content.toString('utf8');
    this.deliveries.push({ body, queue, consumer, published_at_ms: published, delivered_at_ms: at,
      redelivered: !!m.fields.redelivered, routing_key: unmap(m.fields.routingKey), exchange: unmap(m.fields.exchange),
      properties: p, headers });
    process.stderr.write(`${String(at).padStart(8)} ms  ${consumer.padEnd(12)} <- ${queue.padEnd(24)} ${body}\n`);
  }

  async consume(c) {
    this.consumers.push(c);
    if (c.fromMs === 0) await this.attach(c);
  }

  /** basic.qos + basic.consume on a channel of its own. */
  async attach(c) {
    try {
      const ch = await this.cconn.createChannel();
      ch.on('error', () => {}); // recorded where the failing call is awaited
      if (!c.autoAck && c.prefetch > 0) await ch.prefetch(Math.min(c.prefetch, 65535));
      await ch.consume(n(c.queue), (m) => m && this.onMessage(c, ch, m), { noAck: c.autoAck, consumerTag: c.name });
      c.ch = ch;
    } catch (e) {
      this.error(e);
    }
  }

  /** Closing the consumer's channel requeues what it holds. */
  async detach(c) {
    c.closed = true;
    if (c.ch) await c.ch.close().catch(() => {});
  }

  onMessage(c, ch, m) {
    this.record(c.queue, c.name, m);
    if (c.autoAck) return;
    const outcome = c.outcome(c.count++);
    c.held++;
    setTimeout(() => {
      if (c.closed) return;
      try {
        if (outcome === 'ack') ch.ack(m);
        else if (outcome === 'reject') ch.reject(m, false);
        else if (outcome === 'reject_requeue') ch.reject(m, true);
        else if (outcome === 'nack_multiple') ch.nack(m, true, true);
        else ch.nack(m, false, true);
        c.held--;
      } catch (e) {
        // the channel went away while the message was handled: it is requeued
      }
    }, ms(c.handleMs) === 0 ? 0 : c.handleMs * SCALE);
  }

  /** The timed actions in the simulation's order (ties: first runs, then position). */
  async run(plan, endMs, graceMs) {
    plan.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3]);
    this.t0 = process.hrtime.bigint();
    START_MS = Date.now();
    for (const c of this.consumers) {
      if (c.toMs !== null && c.toMs < c.fromMs) continue;
      if (c.fromMs > 0) setTimeout(() => this.attach(c), this.until(c.fromMs));
      if (c.toMs !== null) setTimeout(() => this.detach(c), this.until(Math.max(c.toMs, c.fromMs)));
    }
    for (const [atMs, , , , what] of plan) {
      if (atMs > endMs) continue;
      await sleep(this.until(atMs));
      await what();
    }
    await sleep(this.until(endMs) + graceMs);
  }

  /** Each queue's depth at the end: ready (passive declare) and unacked (held here). */
  async depths(queues) {
    const out = {};
    for (const q of queues) {
      const before = this.errors.length;
      const ok = await this.step((ch) => ch.checkQueue(n(q)));
      if (!ok) {
        this.errors.length = before; // the queue is gone: not an error of the scenario
        continue;
      }
      const held = this.consumers.filter((c) => c.queue === q && !c.closed).reduce((s, c) => s + c.held, 0);
      out[q] = { ready: ok.messageCount, unacked: Math.max(held, 0) };
    }
    return out;
  }

  /** Deletes every prefixed queue and exchange the scenario could have created. */
  async cleanup(queues, exchanges) {
    try {
      const conn = await this.connect();
      let ch = await conn.createChannel();
      ch.on('error', () => {});
      for (const [kind, names] of [['queue', queues], ['exchange', exchanges]]) {
        for (const name of names) {
          if (n(name) === name) continue;
          try {
            if (kind === 'queue') await ch.deleteQueue(n(name));
            else await ch.deleteExchange(n(name));
          } catch (e) {
            ch = await conn.createChannel();
            ch.on('error', () => {});
          }
        }
      }
      await conn.close();
    } catch (e) {
      process.stderr.write(`cleanup: ${e.message} (names start with ${PREFIX})\n`);
    }
    for (const c of [this.cconn, this.conn]) await c.close().catch(() => {});
  }

  report(name, endMs, measuredAt, final) {
    const deliveries = [...this.deliveries].sort((a, b) => a.delivered_at_ms - b.delivered_at_ms);
    return { scenario: name, deliveries, dropped: [], returned: this.returned, errors: this.errors,
      final: { queues: final, delayed: {} }, stats: { events: null, end_ms: endMs, measured_at_ms: measuredAt },
      replay: { client: 'node amqplib', prefix: PREFIX, time_scale: SCALE, nacked: this.nacked,
        note: 'dropped messages cannot be observed on a live broker: compare final.queues instead' } };
  }
}

async function main() {
  const url = process.argv[2] || process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672/%2F';
  for (const line of LEFT_OUT) process.stderr.write('left out: ' + line + '\n');
  const run = new Run(url);
  await run.open();
  let report;
  try {
    await declareTopology(run);
    await startConsumers(run);
    await run.run(timedActions(run), END_MS, GRACE_MS);
    const measuredAt = run.nowMs();
    report = run.report(NAME, END_MS, measuredAt, await run.depths(QUEUES));
  } finally {
    await run.cleanup(QUEUES, EXCHANGES);
  }
  process.stdout.write(JSON.stringify(report, null, 2) + '\n');
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + '\n');
  process.exit(1);
});

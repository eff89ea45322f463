#!/usr/bin/env python3
# Order timeout: a naive consumer closes paid orders: exported by delaylab (delaylab export
# code --lang python).
#
# 40 orders over 10 minutes, each with a close-order message through a DLX wait queue
# (order.delay.queue, x-message-ttl 30m, dead-lettered to order.close.queue). The closer
# closes the order named in the message without reading it first (policy naive). Some users
# pay within 25 minutes, some at 29:59, some just after 30:00, some cancel, the rest never
# pay.
#
# Watch: Every paid order is closed when its message arrives at 30 minutes after creation:
# the orders table flags each one (money taken, order closed) and links to the message that
# did it. Canceled orders get their stock released a second time. Compare with the safe
# consumer preset: same traffic, no mistakes.
#
# Run: ./run.sh AMQP_URL [TIME_SCALE] (python3 with pika; a test broker: the program
# declares and deletes its own objects).
#
# Every exchange and queue gets a unique prefix (dl-<random>-), so a run never touches what
# already lives on the broker; everything declared is deleted at the end. TIME_SCALE
# multiplies every duration (action times, TTLs, handle times); the report divides again, so
# its times are scenario ms. At the end the program prints what it saw as the run contract
# JSON of `delaylab run --format json`; `delaylab diff` compares the two.
#
# Nothing left out: the program does everything the scenario does.

import datetime
import decimal
import heapq
import json
import math
import os
import random
import sys
import time

import pika

NAME = "Order timeout: a naive consumer closes paid orders"
END_MS = 2700000  # the scenario's end (until)
GRACE_MS = 25  # real ms waited after it for the broker's last steps
QUEUES = ["order.close.queue", "order.delay.queue"]
EXCHANGES = ["order.delay.exchange", "order.dlx.exchange"]
LEFT_OUT = []


# ---------------------------------------------------------------- the topology

def declare_topology(run):
    run.step(lambda ch: ch.exchange_declare(n("order.delay.exchange"), "direct", durable=True, arguments={}))
    run.step(lambda ch: ch.exchange_declare(n("order.dlx.exchange"), "direct", durable=True, arguments={}))
    # A wait queue: no consumer reads it, on purpose. Messages sit here until their TTL runs
    # out, then the broker dead-letters them to the exchange below. Only the message at the
    # head of a queue expires, so a short TTL waits behind a long one (head-of-line
    # blocking).
    run.step(lambda ch: ch.queue_declare(n("order.delay.queue"), durable=True, arguments={
        # x-message-ttl: every message in this queue expires after this many ms. An integer:
        # the string "60000" is refused with 406 PRECONDITION_FAILED.
        "x-message-ttl": ms(1800000),
        # x-dead-letter-exchange: where expired, rejected and overflowed messages are
        # republished.
        "x-dead-letter-exchange": n("order.dlx.exchange"),
        # x-dead-letter-routing-key: replaces the message's routing key when it is
        # dead-lettered.
        "x-dead-letter-routing-key": "order.close",
    }))
    run.step(lambda ch: ch.queue_declare(n("order.close.queue"), durable=True, arguments={}))
    run.step(lambda ch: ch.queue_bind(n("order.delay.queue"), n("order.delay.exchange"), routing_key="order.create", arguments={}))
    run.step(lambda ch: ch.queue_bind(n("order.close.queue"), n("order.dlx.exchange"), routing_key="order.close", arguments={}))


# ---------------------------------------------------------------- the consumers

def start_consumers(run):
    # Manual acks: a delivered message stays unacked (and does not expire) until the
    # consumer acks, rejects or nacks it.
    # prefetch (basic.qos): at most this many unacked messages at a time on this consumer.
    run.consume(Consumer("closer", "order.close.queue", auto_ack=False, prefetch=10, handle_ms=200, outcome=fixed("ack"),
                         from_ms=0, to_ms=None))


# ---------------------------------------------------------------- the order lab's scenario

# The order lab: orders live in a real table; the close message's consumer applies the
# scenario's policy to it.
# naive: closes the order named in the message without reading it, so an order paid
# meanwhile is closed (and a canceled one has its stock released twice). The message is a
# reminder, not a fact.
POLICY = "naive"
CONSUMER = "closer"
REMINDER_CONSUMER = None
EARLY = "republish"  # a close message that comes before the deadline
TIMEOUT_MS = 1800000
ITEMS, STOCK = 4, 20
START_MS = 0
SCAN_EVERY_MS = 0  # 0: no compensation scan
LAB_INDEX = 0
# The users: (at ms, what, order). Drawn by the simulation (seed 6), so that this program's
# users do what the simulation's did; the consumer's decisions are this program's own.
ORDERS_TIMELINE = [
    (0, "create", 1),
    (15000, "create", 2),
    (30000, "create", 3),
    (45000, "create", 4),
    (60000, "create", 5),
    (75000, "create", 6),
    (90000, "create", 7),
    (105000, "create", 8),
    (120000, "create", 9),
    (135000, "create", 10),
    (150000, "create", 11),
    (165000, "create", 12),
    (180000, "create", 13),
    (195000, "create", 14),
    (210000, "create", 15),
    (223312, "pay", 5),
    (225000, "create", 16),
    (240000, "create", 17),
    (255000, "create", 18),
    (270000, "create", 19),
    (272516, "pay", 2),
    (285000, "create", 20),
    (300000, "create", 21),
    (315000, "create", 22),
    (330000, "create", 23),
    (345000, "create", 24),
    (360000, "create", 25),
    (375000, "create", 26),
    (390000, "create", 27),
    (398780, "pay", 19),
    (405000, "create", 28),
    (420000, "create", 29),
    (435000, "create", 30),
    (450000, "create", 31),
    (465000, "create", 32),
    (468225, "pay", 26),
    (480000, "create", 33),
    (495000, "create", 34),
    (510000, "create", 35),
    (525000, "create", 36),
    (540000, "create", 37),
    (555000, "create", 38),
    (562793, "pay", 29),
    (570000, "create", 39),
    (585000, "create", 40),
    (681539, "pay", 34),
    (894158, "pay", 23),
    (900583, "pay", 32),
    (940173, "pay", 7),
    (960961, "cancel", 38),
    (976778, "pay", 22),
    (996556, "pay", 21),
    (1061823, "cancel", 10),
    (1259248, "pay", 4),
    (1305015, "cancel", 24),
    (1384415, "pay", 13),
    (1461874, "pay", 36),
    (1477859, "pay", 16),
    (1485259, "pay", 20),
    (1817316, "pay", 25),
    (1877635, "pay", 37),
    (1949000, "pay", 11),
    (2009000, "pay", 15),
    (2040418, "pay", 17),
    (2144000, "pay", 24),
    (2190142, "pay", 27),
    (2354000, "pay", 38),
    (2369000, "pay", 39),
    (2385841, "pay", 40),
]


def lab_publish(run, kind, order, delay_ms=None):
    """A lab message: body order-<id> (close) or remind order-<id>; message_id is its
    idempotency key; delay_ms replaces its own delay (an early message sent again)."""
    if kind == "close":
        exchange, routing_key, body, mandatory = n("order.delay.exchange"), "order.create", "order-%d" % order, False
        props = pika.BasicProperties(
            delivery_mode=2)
    props.message_id = "%s-%d" % (kind, order)
    # The close message has no delay of its own (the queue's TTL delays it): sent as it is.
    run.publish(exchange, routing_key, body, props, mandatory=mandatory)


# ---------------------------------------------------------------- the order lab (same in every order-lab export)

import sqlite3


class Lab:
    """The order lab against a real table (SQLite, in memory): the users' orders, payments
    and cancels at their times, and the consumer's policy on each close message."""

    def __init__(self, run):
        self.run = run
        self.db = sqlite3.connect(":memory:", isolation_level=None)
        self.db.executescript("""
            CREATE TABLE orders (
                id INTEGER PRIMARY KEY,
                item INTEGER NOT NULL,
                status TEXT NOT NULL,          -- WAITING_PAY, PAID, CANCELED, CLOSED
                deadline_ms INTEGER NOT NULL,  -- created + timeout (scenario ms)
                stock_held INTEGER NOT NULL    -- 1 while it holds a unit of its item
            );
            CREATE INDEX orders_status ON orders (status);
            CREATE TABLE stock (item INTEGER PRIMARY KEY, units INTEGER NOT NULL);
            -- The idempotency record: one row per message id handled (primary key).
            CREATE TABLE handled (key TEXT PRIMARY KEY);
        """)
        self.db.executemany("INSERT INTO stock VALUES (?, ?)", [(i, STOCK) for i in range(max(ITEMS, 1))])
        # When each order's deadline passes on this machine's clock (a message that comes
        # before it came early).
        self.deadline_real = {}
        self.c = {k: 0 for k in ("created", "paid", "payments_refused", "canceled", "closed",
                                 "closed_by_scan", "closed_early", "paid_closed",
                                 "stock_double_released", "reminders_sent", "reminders_to_paid",
                                 "skipped", "db_queries", "rows_scanned")}

    def attach(self):
        """The consumers that handle lab messages get the policy (read at delivery, write
        at the end of handling, then ack)."""
        for c in self.run.consumers:
            if c.name in (CONSUMER, REMINDER_CONSUMER):
                c.policy = self.on_delivery

    def timed(self):
        """The users (ORDERS_TIMELINE) and the scan, as timed actions after the scenario's own."""
        plan = []
        for i, (at, what, order) in enumerate(ORDERS_TIMELINE):
            fn = {"create": self.create, "pay": self.pay, "cancel": self.cancel}[what]
            plan.append((at, False, LAB_INDEX, i, lambda fn=fn, order=order, at=at: fn(order, at)))
        if SCAN_EVERY_MS:
            for k, at in enumerate(range(START_MS + SCAN_EVERY_MS, END_MS + 1, SCAN_EVERY_MS)):
                plan.append((at, False, LAB_INDEX + 1, k, lambda at=at: self.scan(at)))
        return plan

    def status(self, order):
        row = self.db.execute("SELECT status FROM orders WHERE id = ?", (order,)).fetchone()
        return row[0] if row else None

    # -- the users

    def create(self, order, at_ms):
        item = (order - 1) % max(ITEMS, 1)
        self.db.execute("INSERT INTO orders VALUES (?, ?, 'WAITING_PAY', ?, 1)", (order, item, at_ms + TIMEOUT_MS))
        self.db.execute("UPDATE stock SET units = units - 1 WHERE item = ?", (item,))
        self.deadline_real[order] = time.monotonic() + ms(TIMEOUT_MS) / 1000
        self.c["created"] += 1
        lab_publish(self.run, "close", order)
        if REMINDER_CONSUMER is not None:
            lab_publish(self.run, "remind", order)

    def pay(self, order, at_ms):
        # A payment is accepted only while the order waits for it.
        cur = self.db.execute("UPDATE orders SET status = 'PAID' WHERE id = ? AND status = 'WAITING_PAY'", (order,))
        self.c["paid" if cur.rowcount == 1 else "payments_refused"] += 1

    def cancel(self, order, at_ms):
        cur = self.db.execute("UPDATE orders SET status = 'CANCELED' WHERE id = ? AND status = 'WAITING_PAY'", (order,))
        if cur.rowcount == 1:
            self.c["canceled"] += 1
            self.release(order, close_path=False)

    def release(self, order, close_path):
        """Gives the order's unit back to stock. A second release is the bug the lab shows:
        the unit is given back anyway and stock is overstated."""
        self.c["db_queries"] += int(close_path)
        (held, item) = self.db.execute("SELECT stock_held, item FROM orders WHERE id = ?", (order,)).fetchone()
        if not held:
            self.c["stock_double_released"] += 1
        self.db.execute("UPDATE orders SET stock_held = 0 WHERE id = ?", (order,))
        self.db.execute("UPDATE stock SET units = units + 1 WHERE item = ?", (item,))

    # -- the consumer

    def on_delivery(self, c, props, body):
        """At delivery: the policy's read. Returns the write to run at the end of handling,
        or None when this delivery is not a lab message for this consumer."""
        key = props.message_id or ""
        kind, _, order = key.partition("-")
        if not order.isdigit() or (kind, c.name) not in (("close", CONSUMER), ("remind", REMINDER_CONSUMER)):
            return None
        order = int(order)
        read = None
        if POLICY != "naive":
            self.c["db_queries"] += 1
            read = self.status(order)
        early_s = self.deadline_real.get(order, 0) - time.monotonic()
        if kind == "remind":
            return lambda: self.remind(order, read)
        return lambda: self.close(order, key, read, early_s)

    def remind(self, order, read):
        if read is not None and read != "WAITING_PAY":
            self.c["skipped"] += 1
            return
        self.c["reminders_sent"] += 1
        self.c["reminders_to_paid"] += int(self.status(order) == "PAID")

    def close(self, order, key, read, early_s):
        """At the end of handling: the policy's write."""
        if POLICY == "idempotent":
            self.db.execute("BEGIN")
            self.c["db_queries"] += 1
            try:
                self.db.execute("INSERT INTO handled (key) VALUES (?)", (key,))
            except sqlite3.IntegrityError:  # handled before: a duplicate stops here
                self.db.execute("ROLLBACK")
                self.c["skipped"] += 1
                return
        if read is not None and read != "WAITING_PAY":
            self.end_transaction(commit=True)
            self.c["skipped"] += 1
            return
        if read is not None and early_s > 0:
            # Not due yet (the clocks disagree): no idempotency record, the message comes back.
            self.end_transaction(commit=False)
            self.c["skipped"] += 1
            if EARLY == "republish":
                lab_publish(self.run, "close", order, delay_ms=max(1, round(early_s * 1000 / SCALE)))
            return
        self.c["db_queries"] += 1
        was = self.status(order)  # for the report only (which status the update overwrote)
        if POLICY in ("conditional_update", "idempotent"):
            cur = self.db.execute(
                "UPDATE orders SET status = 'CLOSED' WHERE id = ? AND status = 'WAITING_PAY'", (order,))
        else:
            cur = self.db.execute("UPDATE orders SET status = 'CLOSED' WHERE id = ?", (order,))
        self.end_transaction(commit=True)
        if cur.rowcount == 0:  # the rows affected decide: 0 = not waiting any more, do nothing
            self.c["skipped"] += 1
            return
        self.closed(order, was, by_scan=False)

    def end_transaction(self, commit):
        if self.db.in_transaction:
            self.db.execute("COMMIT" if commit else "ROLLBACK")

    def closed(self, order, was, by_scan):
        if was == "WAITING_PAY":
            self.c["closed"] += 1
            self.c["closed_by_scan"] += int(by_scan)
        if was == "PAID":
            self.c["paid_closed"] += 1  # the mistake: money taken, order closed
        self.release(order, close_path=True)

    def scan(self, at_ms):
        """The compensation scan: closes unpaid orders past their deadline."""
        self.c["db_queries"] += 1
        self.c["rows_scanned"] += self.db.execute("SELECT COUNT(*) FROM orders WHERE status = 'WAITING_PAY'").fetchone()[0]
        due = self.db.execute("SELECT id FROM orders WHERE status = 'WAITING_PAY' AND deadline_ms <= ? ORDER BY id",
                              (at_ms,)).fetchall()
        for (order,) in due:
            self.c["db_queries"] += 1
            cur = self.db.execute("UPDATE orders SET status = 'CLOSED' WHERE id = ? AND status = 'WAITING_PAY'", (order,))
            if cur.rowcount == 1:
                self.closed(order, "WAITING_PAY", by_scan=True)

    def report(self, end_ms):
        never = self.db.execute("SELECT COUNT(*) FROM orders WHERE status = 'WAITING_PAY' AND deadline_ms <= ?",
                                (end_ms,)).fetchone()[0]
        out = {"policy": POLICY, "never_closed": never, "table": "sqlite3 (in memory)"}
        out.update(self.c)
        return out


# ---------------------------------------------------------------- the timed actions

def timed_actions(run):
    # (at ms, is a repeat, action index, run number, what): sorted by (time, repeat run > 1,
    # action index, run): the order in which the simulation fires them
    plan = []
    return plan


# x-delaylab-id: only for the report (when was a delivered message published); removed from
# the output.
# ---------------------------------------------------------------- the run (same in every export)

SCALE = float(os.environ.get("TIME_SCALE", "1"))
PREFIX = "dl-%08x-" % random.SystemRandom().getrandbits(32)
ID_HEADER = "x-delaylab-id"
DELIVERY_TIME = "x-opt-delivery-time"
# Scaled expiration strings -> as the scenario wrote them (for the report).
TTL_WRITTEN = {}
# Wall-clock Unix ms at the scenario's 0:00 (set when the run starts): the scenario's
# times (x-opt-delivery-time) are offsets from it.
START_MS = 0


def n(name):
    """The broker-side name of a scenario exchange or queue (built-in names stay)."""
    return name if name == "" or name.startswith("amq.") else PREFIX + name


def ms(d):
    """Scenario ms -> real ms under TIME_SCALE; a positive duration stays >= 1 ms."""
    if SCALE == 1 or d <= 0:
        return d
    return max(1, round(d * SCALE))


def ttl(expiration, read_as=None):
    """An expiration string of ms, scaled; still a string (the broker wants a shortstr).
    read_as: the ms the broker reads from a string such as "+500" or "0500"."""
    if SCALE == 1:
        return expiration
    sent = str(ms(int(expiration) if read_as is None else read_as))
    TTL_WRITTEN[sent] = expiration
    return sent


def at_ms(v):
    """x-opt-delivery-time as a long: Unix ms, the program's start plus the scenario's time."""
    return START_MS + ms(v)


def at_s(v):
    """x-opt-delivery-time as an AMQP timestamp (whole seconds), from the scenario's seconds."""
    return datetime.datetime.fromtimestamp((START_MS + ms(v * 1000)) // 1000, datetime.timezone.utc)


def header_value(key, v):
    """A delivered header as the simulation reports it: x-opt-delivery-time back in the
    scenario's time, a timestamp or a decimal in the typed form, the rest plain."""
    if isinstance(v, datetime.datetime):
        secs = v.timestamp()
        if key == DELIVERY_TIME:
            # Sent truncated to whole seconds: rounded up again (exact at TIME_SCALE 1).
            return {"$timestamp": math.ceil((secs * 1000 - START_MS) / SCALE / 1000)}
        return {"$timestamp": int(secs)}
    if isinstance(v, decimal.Decimal):
        return {"$decimal": str(v)}
    if key == DELIVERY_TIME and isinstance(v, int) and not isinstance(v, bool):
        return round((v - START_MS) / SCALE)
    return unmap(v)


def unmap(v):
    """A value the broker hands back, as JSON, with the name prefix taken off."""
    if isinstance(v, bytes):
        v = v.decode("utf-8", "replace")
    if isinstance(v, str):
        return v.replace(PREFIX, "")
    if isinstance(v, dict):
        return {k: unmap(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [unmap(x) for x in v]
    if isinstance(v, datetime.datetime):
        return int(v.timestamp())
    if isinstance(v, decimal.Decimal):
        return str(v)
    return v


def fixed(outcome):
    return lambda k: outcome


def sequence(*outcomes):
    """The k-th delivery gets the k-th outcome; the last one then repeats."""
    return lambda k: outcomes[min(k, len(outcomes) - 1)]


def weighted(*pairs):
    total = sum(w for _, w in pairs)

    def pick(k):
        u, acc = random.random() * total, 0.0
        for o, w in pairs:
            acc += w
            if u < acc:
                return o
        return pairs[-1][0]
    return pick


PROPERTY_NAMES = [("expiration", "expiration"), ("delivery_mode", "delivery_mode"),
                  ("priority", "priority"), ("message_id", "message_id"),
                  ("correlation_id", "correlation_id"), ("content_type", "content_type"),
                  ("content_encoding", "content_encoding"), ("reply_to", "reply_to"),
                  ("timestamp", "timestamp"), ("type", "type"), ("user_id", "user_id"),
                  ("app_id", "app_id")]


class Consumer:
    def __init__(self, name, queue, auto_ack, prefetch, handle_ms, outcome, from_ms, to_ms):
        self.name, self.queue, self.auto_ack, self.prefetch = name, queue, auto_ack, prefetch
        self.handle_ms, self.outcome, self.from_ms, self.to_ms = handle_ms, outcome, from_ms, to_ms
        self.ch, self.count, self.held, self.closed = None, 0, 0, False
        # The order lab's policy (None outside it): called at delivery, it returns the
        # write to run at the end of handling (then the message is acked), or None.
        self.policy = None


class Run:
    """One run: a connection for the actions (one channel in confirm mode, reopened after
    a broker error) and one for the consumers (a channel each); what was seen."""

    def __init__(self, url):
        self.params = pika.URLParameters(url)
        self.conn = pika.BlockingConnection(self.params)
        self.cconn = pika.BlockingConnection(self.params)
        self.ch = None
        self.t0 = None
        self.timers, self.seq = [], 0
        self.deliveries, self.returned, self.errors, self.nacked = [], [], [], []
        self.published_at = []
        self.consumers = []

    def now_ms(self):
        return 0 if self.t0 is None else round((time.monotonic() - self.t0) * 1000 / SCALE)

    def real(self, at_ms):
        """The monotonic time of scenario time at_ms."""
        return self.t0 + at_ms * SCALE / 1000

    def channel(self):
        if not self.conn.is_open:  # a connection error (503 ...) closed it: reconnect
            self.conn = pika.BlockingConnection(self.params)
            self.ch = None
        if self.ch is None or not self.ch.is_open:
            self.ch = self.conn.channel()
            self.ch.confirm_delivery()
        return self.ch

    def error(self, e, body=None):
        scope = "connection" if isinstance(e, pika.exceptions.ConnectionClosedByBroker) else "channel"
        rec = {"at_ms": self.now_ms(), "code": e.reply_code, "text": unmap(e.reply_text), "scope": scope}
        if body is not None:
            rec["body"] = body
        self.errors.append(rec)

    def step(self, fn, body=None):
        """Runs fn(channel); a broker error is recorded and the next step gets a new channel."""
        try:
            return fn(self.channel())
        except (pika.exceptions.ChannelClosedByBroker, pika.exceptions.ConnectionClosedByBroker) as e:
            self.error(e, body)

    def publish(self, exchange, routing_key, body, props, mandatory=False):
        """basic.publish in confirm mode: waits for the ack; a return or nack is recorded."""
        props.headers = dict(props.headers or {})
        props.headers[ID_HEADER] = str(len(self.published_at))
        self.published_at.append(self.now_ms())
        try:
            self.channel().basic_publish(exchange, routing_key, body.encode(), props, mandatory=mandatory)
        except pika.exceptions.UnroutableError as e:
            for r in e.messages:
                self.returned.append({"body": body, "at_ms": self.now_ms(),
                                      "code": r.method.reply_code, "text": r.method.reply_text})
        except pika.exceptions.NackError:
            self.nacked.append({"body": body, "at_ms": self.now_ms()})
        except (pika.exceptions.ChannelClosedByBroker, pika.exceptions.ConnectionClosedByBroker) as e:
            self.error(e, body)

    def get(self, queue):
        """basic.get with auto-ack: takes the head of the queue, if any."""
        r = self.step(lambda ch: ch.basic_get(n(queue), auto_ack=True))
        if r and r[0] is not None:
            self.record(queue, "basic.get", r[0], r[1], r[2])

    def record(self, queue, consumer, method, props, body):
        headers = {k: header_value(k, v) for k, v in (props.headers or {}).items()}
        i = headers.pop(ID_HEADER, None)
        published = self.published_at[int(i)] if i is not None and i.isdigit() and int(i) < len(self.published_at) else None
        p = {}
        for key, attr in PROPERTY_NAMES:
            v = getattr(props, attr, None)
            if v is not None:
                p[key] = unmap(v)
        if p.get("expiration") in TTL_WRITTEN:
            p["expiration"] = TTL_WRITTEN[p["expiration"]]
        for death in headers.get("x-death", []):
            if isinstance(death, dict) and death.get("original-expiration") in TTL_WRITTEN:
                death["original-expiration"] = TTL_WRITTEN[death["original-expiration"]]
        self.deliveries.append({
            "body": body.decode("utf-8", "replace"), "queue": queue, "consumer": consumer,
            "published_at_ms": published, "delivered_at_ms": self.now_ms(),
            "redelivered": bool(method.redelivered), "routing_key": unmap(method.routing_key),
            "exchange": unmap(method.exchange), "properties": p, "headers": headers})
        print("%8d ms  %-12s <- %-24s %s" % (self.now_ms(), consumer, queue, body.decode("utf-8", "replace")),
              file=sys.stderr)

    def consume(self, c):
        """basic.consume at c.from_ms; closed at c.to_ms (which requeues what it holds)."""
        self.consumers.append(c)
        if c.from_ms == 0:
            self.attach(c)

    def attach(self, c):
        try:
            ch = self.cconn.channel()
            if not c.auto_ack and c.prefetch > 0:
                ch.basic_qos(prefetch_count=min(c.prefetch, 65535))
            ch.basic_consume(n(c.queue), lambda ch_, m, p, b: self.on_message(c, ch_, m, p, b),
                             auto_ack=c.auto_ack, consumer_tag=c.name)
            c.ch = ch
        except (pika.exceptions.ChannelClosedByBroker, pika.exceptions.ConnectionClosedByBroker) as e:
            self.error(e)

    def detach(self, c):
        c.closed = True
        if c.ch is not None and c.ch.is_open:
            c.ch.close()

    def on_message(self, c, ch, method, props, body):
        self.record(c.queue, c.name, method, props, body)
        write = c.policy(c, props, body) if c.policy is not None else None
        if c.auto_ack:
            if write is not None:
                self.later(time.monotonic() + ms(c.handle_ms) / 1000, write)
            return
        outcome = "ack" if write is not None else c.outcome(c.count)
        c.count += 1
        c.held += 1

        def finish():
            if not ch.is_open:
                return
            if write is not None:
                write()
            if outcome == "ack":
                ch.basic_ack(method.delivery_tag)
            elif outcome == "reject":
                ch.basic_reject(method.delivery_tag, requeue=False)
            elif outcome == "reject_requeue":
                ch.basic_reject(method.delivery_tag, requeue=True)
            elif outcome == "nack_multiple":
                ch.basic_nack(method.delivery_tag, multiple=True, requeue=True)
            else:
                ch.basic_nack(method.delivery_tag, requeue=True)
            c.held -= 1
        self.later(time.monotonic() + ms(c.handle_ms) / 1000, finish)

    def later(self, due, fn):
        heapq.heappush(self.timers, (due, self.seq, fn))
        self.seq += 1

    def wait_until(self, due):
        """Serves deliveries and timers until the monotonic time due."""
        while True:
            while self.timers and self.timers[0][0] <= time.monotonic():
                heapq.heappop(self.timers)[2]()
            now = time.monotonic()
            if now >= due:
                return
            nxt = self.timers[0][0] if self.timers else due
            self.cconn.process_data_events(time_limit=max(0.0, min(min(due, nxt) - now, 0.005)))
            if self.conn.is_open:
                self.conn.process_data_events(time_limit=0)

    def run(self, plan, end_ms, grace_ms):
        """The timed actions in the simulation's order (ties: first runs, then position)."""
        global START_MS
        self.t0 = time.monotonic()
        START_MS = time.time_ns() // 1_000_000
        for c in self.consumers:
            if c.to_ms is not None and c.to_ms < c.from_ms:
                continue
            if c.from_ms > 0:
                self.later(self.real(c.from_ms), lambda c=c: self.attach(c))
            if c.to_ms is not None:
                self.later(self.real(max(c.to_ms, c.from_ms)), lambda c=c: self.detach(c))
        for at_ms, _, _, _, fn in sorted((p for p in plan if p[0] <= end_ms), key=lambda p: p[:4]):
            self.wait_until(self.real(at_ms))
            fn()
        self.wait_until(self.real(end_ms) + grace_ms / 1000)

    def depths(self, queues):
        """Each queue's depth at the end: ready (passive declare) and unacked (held here)."""
        out = {}
        for q in queues:
            ok = self.step(lambda ch: ch.queue_declare(n(q), passive=True))
            if ok is None:
                self.errors.pop()  # a queue that is gone is not an error of the scenario
                continue
            held = sum(c.held for c in self.consumers if c.queue == q and not c.closed)
            out[q] = {"ready": ok.method.message_count, "unacked": max(held, 0)}
        return out

    def cleanup(self, queues, exchanges):
        """Deletes every prefixed queue and exchange the scenario could have created."""
        conn = pika.BlockingConnection(self.params)
        ch = conn.channel()
        for kind, names in (("queue", queues), ("exchange", exchanges)):
            for name in names:
                if n(name) == name:
                    continue
                try:
                    if kind == "queue":
                        ch.queue_delete(n(name))
                    else:
                        ch.exchange_delete(n(name))
                except pika.exceptions.ChannelClosedByBroker:
                    ch = conn.channel()
        conn.close()
        for c in (self.cconn, self.conn):
            if c.is_open:
                c.close()

    def report(self, name, end_ms, measured_at, final, url):
        deliveries = sorted(self.deliveries, key=lambda d: d["delivered_at_ms"])
        return {"scenario": name, "deliveries": deliveries, "dropped": [], "returned": self.returned,
                "errors": self.errors, "final": {"queues": final, "delayed": {}},
                "stats": {"events": None, "end_ms": end_ms, "measured_at_ms": measured_at},
                "replay": {"client": "python pika " + pika.__version__, "prefix": PREFIX,
                           "time_scale": SCALE, "nacked": self.nacked,
                           "note": "dropped messages cannot be observed on a live broker: compare final.queues instead"}}


def main():
    url = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    for line in LEFT_OUT:
        print("left out: " + line, file=sys.stderr)
    run = Run(url)
    lab = Lab(run)
    try:
        declare_topology(run)
        start_consumers(run)
        lab.attach()
        run.run(timed_actions(run) + lab.timed(), END_MS, GRACE_MS)
        measured_at = run.now_ms()
        report = run.report(NAME, END_MS, measured_at, run.depths(QUEUES), url)
        report["orders"] = lab.report(END_MS)
    finally:
        run.cleanup(QUEUES, EXCHANGES)
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()

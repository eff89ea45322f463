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

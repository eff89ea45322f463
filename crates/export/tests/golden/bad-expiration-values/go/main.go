// Bad TTL values: 406 PRECONDITION_FAILED: exported by delaylab (delaylab export code
// --lang go).
//
// One publisher sends orders to order.delay.exchange, bound to the DLX wait queue
// order.delay.queue (dead-lettering through order.dlx.exchange into order.dlx.queue), with
// expiration strings a client might produce by mistake, one per second. At 0:10 someone
// also declares a queue with x-message-ttl given as a string.
//
// Watch: expiration must be a string holding a non-negative integer of milliseconds, at
// most 10 years. "abc", "-1", "1.5", "", " 500" and "315360000001" each close the channel
// with 406 PRECONDITION_FAILED (no_integer, value_negative, leftover_string, no_integer,
// no_integer, value_too_large) at 0:00 to 0:05, and the message is gone: it appears only in
// errors. "+500" (0:06) and "0500" (0:07) are accepted as 500 ms and delivered at 0:06.500
// and 0:07.500 with the original string kept in x-death original-expiration. The queue
// declared with x-message-ttl "60000" (a string, not an integer) fails with 406 at 0:10.
//
// Run: ./run.sh AMQP_URL [TIME_SCALE] (go 1.19 in GOPATH mode with Debian's
// golang-github-rabbitmq-amqp091-go-dev; a test broker: the program declares and deletes
// its own objects).
//
// Every exchange and queue gets a unique prefix (dl-<random>-), so a run never touches what
// already lives on the broker; everything declared is deleted at the end. TIME_SCALE
// multiplies every duration (action times, TTLs, handle times); the report divides again,
// so its times are scenario ms. At the end the program prints what it saw as the run
// contract JSON of `delaylab run --format json`; `delaylab diff` compares the two.
//
// Left out (a client program cannot do this; the simulation does):
// - actions[3] publishes expiration "": amqp091-go cannot send an empty expiration (an
// empty string means no property), so the message would not be refused
package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

const scenarioName = "Bad TTL values: 406 PRECONDITION_FAILED"

// endMs is the scenario's end (until); graceMs the real ms waited after it.
const endMs, graceMs = 20000, 25

var queues = []string{"order.delay.queue", "order.delay.string-ttl.queue", "order.dlx.queue"}
var exchanges = []string{"order.delay.exchange", "order.dlx.exchange"}
var leftOut = []string{"actions[3] publishes expiration \"\": amqp091-go cannot send an empty expiration (an empty string means no property), so the message would not be refused"}

// ---------------------------------------------------------------- the topology

func declareTopology(run *Run) {
	run.Step(func(ch *amqp.Channel) error {
		return ch.ExchangeDeclare(n("order.delay.exchange"), "direct", true, false, false, false, nil)
	})
	run.Step(func(ch *amqp.Channel) error {
		return ch.ExchangeDeclare(n("order.dlx.exchange"), "direct", true, false, false, false, nil)
	})
	// A wait queue: no consumer reads it, on purpose. Messages sit here until their TTL runs
	// out, then the broker dead-letters them to the exchange below. Only the message at the
	// head of a queue expires, so a short TTL waits behind a long one (head-of-line blocking).
	run.Step(func(ch *amqp.Channel) error {
		_, err := ch.QueueDeclare(n("order.delay.queue"), true, false, false, false, amqp.Table{
			// x-dead-letter-exchange: where expired, rejected and overflowed messages are
			// republished.
			"x-dead-letter-exchange": n("order.dlx.exchange"),
			// x-dead-letter-routing-key: replaces the message's routing key when it is
			// dead-lettered.
			"x-dead-letter-routing-key": "order.timeout",
		})
		return err
	})
	run.Step(func(ch *amqp.Channel) error {
		_, err := ch.QueueDeclare(n("order.dlx.queue"), true, false, false, false, nil)
		return err
	})
	run.Step(func(ch *amqp.Channel) error {
		return ch.QueueBind(n("order.delay.queue"), "order.create", n("order.delay.exchange"), false, nil)
	})
	run.Step(func(ch *amqp.Channel) error {
		return ch.QueueBind(n("order.dlx.queue"), "order.timeout", n("order.dlx.exchange"), false, nil)
	})
}

// ---------------------------------------------------------------- the consumers

func startConsumers(run *Run) {
	// Manual acks: a delivered message stays unacked (and does not expire) until the consumer
	// acks, rejects or nacks it.
	// prefetch (basic.qos): at most this many unacked messages at a time on this consumer.
	run.Consume(&Consumer{Name: "closer", Queue: "order.dlx.queue", AutoAck: false, Prefetch: 10, HandleMs: 0, Outcome: fixed("ack"),
		FromMs: 0, ToMs: nil})
}

// ---------------------------------------------------------------- the timed actions

func timedActions(run *Run) []Timed {
	// Sorted by (time, repeat run > 1, action index, run): the order in which the simulation
	// fires them.
	plan := []Timed{}
	// actions[0] at 0 ms
		// Publisher confirms: the broker acks each publish once it has taken it; the program
		// waits for each ack, and a mandatory message that cannot be routed comes back before it.
		// expiration is a string of milliseconds (an AMQP shortstr), not a number: "300000". The
		// broker parses it strictly at publish; a bad value closes the channel with 406.
		// Sent exactly as written, not scaled: the broker refuses it (406) as the simulation
		// does.
	plan = append(plan, Timed{0, false, 0, 1, func() {
		run.Publish(n("order.delay.exchange"), "order.create", "exp-abc", amqp.Publishing{
			Expiration: "abc",
		}, false)
	}})
	// actions[1] at 1000 ms
	plan = append(plan, Timed{1000, false, 1, 1, func() {
		run.Publish(n("order.delay.exchange"), "order.create", "exp-negative", amqp.Publishing{
			Expiration: "-1",
		}, false)
	}})
	// actions[2] at 2000 ms
	plan = append(plan, Timed{2000, false, 2, 1, func() {
		run.Publish(n("order.delay.exchange"), "order.create", "exp-decimal", amqp.Publishing{
			Expiration: "1.5",
		}, false)
	}})
	// actions[3] at 3000 ms
	plan = append(plan, Timed{3000, false, 3, 1, func() {
		run.Publish(n("order.delay.exchange"), "order.create", "exp-empty", amqp.Publishing{
			Expiration: "",
		}, false)
	}})
	// actions[4] at 4000 ms
	plan = append(plan, Timed{4000, false, 4, 1, func() {
		run.Publish(n("order.delay.exchange"), "order.create", "exp-leading-space", amqp.Publishing{
			Expiration: " 500",
		}, false)
	}})
	// actions[5] at 5000 ms
	plan = append(plan, Timed{5000, false, 5, 1, func() {
		run.Publish(n("order.delay.exchange"), "order.create", "exp-over-10-years", amqp.Publishing{
			Expiration: "315360000001",
		}, false)
	}})
	// actions[6] at 6000 ms
	plan = append(plan, Timed{6000, false, 6, 1, func() {
		run.Publish(n("order.delay.exchange"), "order.create", "exp-plus", amqp.Publishing{
			Expiration: ttlReadAs("+500", 500),
		}, false)
	}})
	// actions[7] at 7000 ms
	plan = append(plan, Timed{7000, false, 7, 1, func() {
		run.Publish(n("order.delay.exchange"), "order.create", "exp-leading-zero", amqp.Publishing{
			Expiration: ttlReadAs("0500", 500),
		}, false)
	}})
	// actions[8] at 10000 ms
	plan = append(plan, Timed{10000, false, 8, 1, func() {
		run.Step(func(ch *amqp.Channel) error {
			_, err := ch.QueueDeclare(n("order.delay.string-ttl.queue"), true, false, false, false, amqp.Table{
				// Given as a string, as the scenario has it: RabbitMQ refuses this declaration with 406
				// (x-message-ttl must be an integer).
				"x-message-ttl": "60000",
			})
			return err
		})
	}})
	return plan
}

// x-delaylab-id: only for the report (when was a delivered message published); removed from
// the output.
// ---------------------------------------------------------------- the run (same in every export)

var (
	scale  = envScale()
	prefix = fmt.Sprintf("dl-%08x-", rand.New(rand.NewSource(time.Now().UnixNano())).Uint32())
	// Scaled expiration strings -> as the scenario wrote them (for the report).
	ttlWritten   = map[string]string{}
	ttlWrittenMu sync.Mutex
	// Wall-clock Unix ms at the scenario's 0:00 (set when the run starts): the scenario's
	// times (x-opt-delivery-time) are offsets from it.
	startMs int64
)

const idHeader = "x-delaylab-id"
const deliveryTimeHeader = "x-opt-delivery-time"

// deliveryTime: x-opt-delivery-time as a long, Unix ms: the program's start plus the
// scenario's time.
func deliveryTime(v int64) int64 { return startMs + ms(v) }

// deliveryTimeS: x-opt-delivery-time as an AMQP timestamp (whole seconds), from the
// scenario's seconds.
func deliveryTimeS(v int64) time.Time { return time.Unix((startMs+ms(v*1000))/1000, 0) }

// headerValue: a delivered header as the simulation reports it: x-opt-delivery-time back
// in the scenario's time, a timestamp or a decimal in the typed form, the rest plain.
func headerValue(key string, v interface{}) interface{} {
	switch x := v.(type) {
	case time.Time:
		if key == deliveryTimeHeader {
			// Sent truncated to whole seconds: rounded up again (exact at TIME_SCALE 1).
			return Obj{"$timestamp": int64(math.Ceil(float64(x.Unix()*1000-startMs) / scale / 1000))}
		}
		return Obj{"$timestamp": x.Unix()}
	case amqp.Decimal:
		return Obj{"$decimal": decimalText(x)}
	case int64:
		if key == deliveryTimeHeader {
			return int64(math.Round(float64(x-startMs) / scale))
		}
	case int32:
		if key == deliveryTimeHeader {
			return int64(math.Round(float64(int64(x)-startMs) / scale))
		}
	}
	return plain(v)
}

// decimalText: 150 with scale 2 -> "1.50".
func decimalText(d amqp.Decimal) string {
	digits := strconv.FormatUint(uint64(uint32(d.Value)), 10)
	for len(digits) <= int(d.Scale) {
		digits = "0" + digits
	}
	if d.Scale == 0 {
		return digits
	}
	cut := len(digits) - int(d.Scale)
	return digits[:cut] + "." + digits[cut:]
}

func envScale() float64 {
	f, err := strconv.ParseFloat(os.Getenv("TIME_SCALE"), 64)
	if err != nil || f <= 0 {
		return 1
	}
	return f
}

// n is the broker-side name of a scenario exchange or queue (built-in names stay).
func n(name string) string {
	if name == "" || strings.HasPrefix(name, "amq.") {
		return name
	}
	return prefix + name
}

// ms: scenario ms -> real ms under TIME_SCALE; a positive duration stays >= 1 ms.
func ms(d int64) int64 {
	if scale == 1 || d <= 0 {
		return d
	}
	return int64(math.Max(1, math.Round(float64(d)*scale)))
}

// msInt32 is ms as an AMQP signedint (an argument that fits in 32 bits).
func msInt32(d int32) int32 { return int32(ms(int64(d))) }

// ttl: an expiration string of ms, scaled; still a string (the broker wants a shortstr).
func ttl(expiration string) string {
	v, _ := strconv.ParseInt(expiration, 10, 64)
	return ttlReadAs(expiration, v)
}

// ttlReadAs: readAs is the ms the broker reads from a string such as "+500" or "0500".
func ttlReadAs(expiration string, readAs int64) string {
	if scale == 1 {
		return expiration
	}
	sent := strconv.FormatInt(ms(readAs), 10)
	ttlWrittenMu.Lock()
	ttlWritten[sent] = expiration
	ttlWrittenMu.Unlock()
	return sent
}

type Outcome func(k int) string

func fixed(o string) Outcome { return func(int) string { return o } }

// sequence: the k-th delivery gets the k-th outcome; the last one then repeats.
func sequence(os ...string) Outcome {
	return func(k int) string {
		if k >= len(os) {
			k = len(os) - 1
		}
		return os[k]
	}
}

type Weight struct {
	Outcome string
	Weight  float64
}

func weighted(ws ...Weight) Outcome {
	return func(int) string {
		total := 0.0
		for _, w := range ws {
			total += w.Weight
		}
		u, acc := rand.Float64()*total, 0.0
		for _, w := range ws {
			acc += w.Weight
			if u < acc {
				return w.Outcome
			}
		}
		return ws[len(ws)-1].Outcome
	}
}

type Consumer struct {
	Name, Queue      string
	AutoAck          bool
	Prefetch         int
	HandleMs, FromMs int64
	ToMs             *int64
	Outcome          Outcome
	ch               *amqp.Channel
	count, held      int
	closed           bool
}

type Timed struct {
	AtMs   int64
	Repeat bool
	Index  int
	Run    int
	What   func()
}

func at(ms int64) *int64 { return &ms }

type Obj = map[string]interface{}

// Run: a connection for the actions (one channel in confirm mode, reopened after a broker
// error), one for the consumers (a channel each); what was seen.
type Run struct {
	url         string
	conn, cconn *amqp.Connection
	ch          *amqp.Channel
	closes      chan *amqp.Error
	returns     chan amqp.Return
	confirms    chan amqp.Confirmation
	t0          time.Time
	started     bool
	mu          sync.Mutex
	deliveries  []Obj
	returned    []Obj
	errors      []Obj
	nacked      []Obj
	publishedAt []int64
	consumers   []*Consumer
}

func NewRun(url string) (*Run, error) {
	conn, err := amqp.Dial(url)
	if err != nil {
		return nil, err
	}
	cconn, err := amqp.Dial(url)
	if err != nil {
		return nil, err
	}
	return &Run{url: url, conn: conn, cconn: cconn, deliveries: []Obj{}, returned: []Obj{}, errors: []Obj{}, nacked: []Obj{}}, nil
}

func (r *Run) NowMs() int64 {
	if !r.started {
		return 0
	}
	return int64(math.Round(float64(time.Since(r.t0).Nanoseconds()) / 1e6 / scale))
}

// real is the wall time of scenario time atMs.
func (r *Run) real(atMs int64) time.Time {
	return r.t0.Add(time.Duration(float64(atMs) * scale * 1e6))
}

func (r *Run) channel() (*amqp.Channel, error) {
	if r.conn.IsClosed() { // a connection error (503 ...) closed it: reconnect
		conn, err := amqp.Dial(r.url)
		if err != nil {
			return nil, err
		}
		r.conn, r.ch = conn, nil
	}
	if r.ch == nil || r.ch.IsClosed() {
		ch, err := r.conn.Channel()
		if err != nil {
			return nil, err
		}
		if err := ch.Confirm(false); err != nil {
			return nil, err
		}
		r.ch = ch
		r.closes = ch.NotifyClose(make(chan *amqp.Error, 1))
		r.returns = ch.NotifyReturn(make(chan amqp.Return, 64))
		r.confirms = ch.NotifyPublish(make(chan amqp.Confirmation, 64))
	}
	return r.ch, nil
}

func (r *Run) error(err error, body *string) {
	rec := Obj{"at_ms": r.NowMs()}
	if e, ok := err.(*amqp.Error); ok && e.Server {
		rec["code"], rec["text"] = e.Code, unmap(e.Reason)
		if e.Code == amqp.ConnectionForced || e.Code == amqp.CommandInvalid || e.Code == amqp.ChannelError ||
			e.Code == amqp.UnexpectedFrame || e.Code == amqp.ResourceError || e.Code == amqp.NotAllowed ||
			e.Code == amqp.NotImplemented || e.Code == amqp.InternalError || e.Code == amqp.FrameError ||
			e.Code == amqp.SyntaxError {
			rec["scope"] = "connection"
		} else {
			rec["scope"] = "channel"
		}
	} else {
		rec["code"], rec["text"], rec["scope"] = 0, "client: "+err.Error(), "client"
	}
	if body != nil {
		rec["body"] = *body
	}
	r.mu.Lock()
	r.errors = append(r.errors, rec)
	r.mu.Unlock()
}

// Step runs f on the actions' channel; a broker error is recorded (the next step gets a
// new channel).
func (r *Run) Step(f func(ch *amqp.Channel) error) {
	ch, err := r.channel()
	if err == nil {
		err = f(ch)
	}
	if err != nil {
		r.error(err, nil)
	}
}

// Publish: basic.publish in confirm mode; waits for the ack; a return (312) or a nack is
// recorded, and so is the channel error a refused publish causes.
func (r *Run) Publish(exchange, routingKey, body string, msg amqp.Publishing, mandatory bool) {
	headers := amqp.Table{}
	for k, v := range msg.Headers {
		headers[k] = v
	}
	r.mu.Lock()
	headers[idHeader] = strconv.Itoa(len(r.publishedAt))
	r.publishedAt = append(r.publishedAt, r.NowMs())
	r.mu.Unlock()
	msg.Headers = headers
	msg.Body = []byte(body)
	ch, err := r.channel()
	if err != nil {
		r.error(err, &body)
		return
	}
	// Confirms through the ordered NotifyPublish listener, not PublishWithDeferredConfirm:
	// amqp091-go 1.5.0 (Debian's) registers a deferred confirmation only after the publish
	// is on the wire, so an ack that comes back first is dropped and Wait() never returns.
	// Publishes here wait one at a time, so the next confirmation is this one's.
	if err := ch.Publish(exchange, routingKey, mandatory, false, msg); err != nil {
		r.error(err, &body)
		return
	}
	conf, open := <-r.confirms
	acked := open && conf.Ack
	for {
		select {
		case ret, ok := <-r.returns:
			if ok {
				r.mu.Lock()
				r.returned = append(r.returned, Obj{"body": string(ret.Body), "at_ms": r.NowMs(), "code": ret.ReplyCode, "text": ret.ReplyText})
				r.mu.Unlock()
				continue
			}
		default:
		}
		break
	}
	if acked {
		return
	}
	select { // a nack, or the channel closed under the publish
	case e, ok := <-r.closes:
		if ok && e != nil {
			r.error(e, &body)
			return
		}
	case <-time.After(50 * time.Millisecond):
	}
	if !ch.IsClosed() {
		r.mu.Lock()
		r.nacked = append(r.nacked, Obj{"body": body, "at_ms": r.NowMs()})
		r.mu.Unlock()
	}
}

// Get: basic.get with auto-ack takes the head of the queue, if any.
func (r *Run) Get(queue string) {
	r.Step(func(ch *amqp.Channel) error {
		d, ok, err := ch.Get(n(queue), true)
		if ok {
			r.record(queue, "basic.get", d)
		}
		return err
	})
}

func (r *Run) record(queue, consumer string, d amqp.Delivery) {
	headers := Obj{}
	for k, v := range d.Headers {
		headers[k] = headerValue(k, v)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var published interface{}
	if id, ok := headers[idHeader].(string); ok {
		if i, err := strconv.Atoi(id); err == nil && i < len(r.publishedAt) {
			published = r.publishedAt[i]
		}
	}
	delete(headers, idHeader)
	p := Obj{}
	put := func(k, v string) {
		if v != "" {
			p[k] = unmap(v)
		}
	}
	put("expiration", d.Expiration)
	if d.DeliveryMode != 0 {
		p["delivery_mode"] = d.DeliveryMode
	}
	if d.Priority != 0 {
		p["priority"] = d.Priority
	}
	put("message_id", d.MessageId)
	put("correlation_id", d.CorrelationId)
	put("content_type", d.ContentType)
	put("content_encoding", d.ContentEncoding)
	put("reply_to", d.ReplyTo)
	if !d.Timestamp.IsZero() {
		p["timestamp"] = d.Timestamp.Unix()
	}
	put("type", d.Type)
	put("user_id", d.UserId)
	put("app_id", d.AppId)
	ttlWrittenMu.Lock()
	if e, ok := p["expiration"].(string); ok && ttlWritten[e] != "" {
		p["expiration"] = ttlWritten[e]
	}
	if deaths, ok := headers["x-death"].([]interface{}); ok {
		for _, x := range deaths {
			if death, ok := x.(Obj); ok {
				if e, ok := death["original-expiration"].(string); ok && ttlWritten[e] != "" {
					death["original-expiration"] = ttlWritten[e]
				}
			}
		}
	}
	ttlWrittenMu.Unlock()
	at := r.NowMs()
	r.deliveries = append(r.deliveries, Obj{"body": string(d.Body), "queue": queue, "consumer": consumer,
		"published_at_ms": published, "delivered_at_ms": at, "redelivered": d.Redelivered,
		"routing_key": unmap(d.RoutingKey), "exchange": unmap(d.Exchange), "properties": p, "headers": headers})
	fmt.Fprintf(os.Stderr, "%8d ms  %-12s <- %-24s %s\n", at, consumer, queue, d.Body)
}

func (r *Run) Consume(c *Consumer) {
	r.consumers = append(r.consumers, c)
	if c.FromMs == 0 {
		r.attach(c)
	}
}

// attach: basic.qos and basic.consume on a channel of its own; a goroutine handles the
// deliveries (each one held HandleMs, then acked, rejected or requeued).
func (r *Run) attach(c *Consumer) {
	ch, err := r.cconn.Channel()
	if err != nil {
		r.error(err, nil)
		return
	}
	if !c.AutoAck && c.Prefetch > 0 {
		p := c.Prefetch
		if p > 65535 {
			p = 65535
		}
		if err := ch.Qos(p, 0, false); err != nil {
			r.error(err, nil)
			return
		}
	}
	deliveries, err := ch.Consume(n(c.Queue), c.Name, c.AutoAck, false, false, false, nil)
	if err != nil {
		r.error(err, nil)
		return
	}
	r.mu.Lock()
	c.ch = ch
	r.mu.Unlock()
	go func() {
		for d := range deliveries {
			r.record(c.Queue, c.Name, d)
			if c.AutoAck {
				continue
			}
			r.mu.Lock()
			outcome := c.Outcome(c.count)
			c.count++
			c.held++
			r.mu.Unlock()
			d := d
			time.AfterFunc(time.Duration(float64(c.HandleMs)*scale*1e6), func() {
				var err error
				switch outcome {
				case "ack":
					err = d.Ack(false)
				case "reject":
					err = d.Reject(false)
				case "reject_requeue":
					err = d.Reject(true)
				case "nack_multiple":
					err = d.Nack(true, true)
				default:
					err = d.Nack(false, true)
				}
				if err == nil {
					r.mu.Lock()
					c.held--
					r.mu.Unlock()
				}
			})
		}
	}()
}

// detach: closing the consumer's channel requeues what it holds.
func (r *Run) detach(c *Consumer) {
	r.mu.Lock()
	c.closed = true
	ch := c.ch
	r.mu.Unlock()
	if ch != nil {
		ch.Close()
	}
}

// Play runs the timed actions in the simulation's order (ties: first runs, then position).
func (r *Run) Play(plan []Timed, endMs, graceMs int64) {
	r.t0, r.started = time.Now(), true
	startMs = r.t0.UnixMilli()
	for _, c := range r.consumers {
		c := c
		if c.ToMs != nil && *c.ToMs < c.FromMs {
			continue
		}
		if c.FromMs > 0 {
			time.AfterFunc(time.Until(r.real(c.FromMs)), func() { r.attach(c) })
		}
		if c.ToMs != nil {
			to := *c.ToMs
			if to < c.FromMs {
				to = c.FromMs
			}
			time.AfterFunc(time.Until(r.real(to)), func() { r.detach(c) })
		}
	}
	sort.SliceStable(plan, func(i, j int) bool {
		a, b := plan[i], plan[j]
		if a.AtMs != b.AtMs {
			return a.AtMs < b.AtMs
		}
		if a.Repeat != b.Repeat {
			return !a.Repeat
		}
		if a.Index != b.Index {
			return a.Index < b.Index
		}
		return a.Run < b.Run
	})
	for _, t := range plan {
		if t.AtMs > endMs {
			continue
		}
		time.Sleep(time.Until(r.real(t.AtMs)))
		t.What()
	}
	time.Sleep(time.Until(r.real(endMs).Add(time.Duration(graceMs) * time.Millisecond)))
}

// Depths: each queue's depth at the end, ready (passive declare) and unacked (held here).
func (r *Run) Depths(queues []string) Obj {
	out := Obj{}
	for _, q := range queues {
		ch, err := r.channel()
		if err != nil {
			continue
		}
		info, err := ch.QueueDeclarePassive(n(q), false, false, false, false, nil)
		if err != nil {
			continue // the queue is gone (deleted by an action, or never declared)
		}
		r.mu.Lock()
		held := 0
		for _, c := range r.consumers {
			if c.Queue == q && !c.closed {
				held += c.held
			}
		}
		r.mu.Unlock()
		if held < 0 {
			held = 0
		}
		out[q] = Obj{"ready": info.Messages, "unacked": held}
	}
	return out
}

// Cleanup deletes every prefixed queue and exchange the scenario could have created.
func (r *Run) Cleanup(queues, exchanges []string) {
	conn, err := amqp.Dial(r.url)
	if err == nil {
		ch, _ := conn.Channel()
		for _, q := range queues {
			if n(q) != q && ch != nil {
				if _, err := ch.QueueDelete(n(q), false, false, false); err != nil {
					ch, _ = conn.Channel()
				}
			}
		}
		for _, x := range exchanges {
			if n(x) != x && ch != nil {
				if err := ch.ExchangeDelete(n(x), false, false); err != nil {
					ch, _ = conn.Channel()
				}
			}
		}
		conn.Close()
	} else {
		fmt.Fprintf(os.Stderr, "cleanup: %v (names start with %s)\n", err, prefix)
	}
	r.cconn.Close()
	r.conn.Close()
}

func (r *Run) Report(name string, endMs, measuredAt int64, depths Obj) Obj {
	r.mu.Lock()
	defer r.mu.Unlock()
	ds := append([]Obj{}, r.deliveries...)
	sort.SliceStable(ds, func(i, j int) bool {
		return ds[i]["delivered_at_ms"].(int64) < ds[j]["delivered_at_ms"].(int64)
	})
	return Obj{"scenario": name, "deliveries": ds, "dropped": []Obj{}, "returned": r.returned,
		"errors": r.errors, "final": Obj{"queues": depths, "delayed": Obj{}},
		"stats":  Obj{"events": nil, "end_ms": endMs, "measured_at_ms": measuredAt},
		"replay": Obj{"client": "go amqp091-go", "prefix": prefix, "time_scale": scale, "nacked": r.nacked,
			"note": "dropped messages cannot be observed on a live broker: compare final.queues instead"}}
}

func unmap(s string) string { return strings.ReplaceAll(s, prefix, "") }

// plain: a value the broker hands back, as JSON-ready Go values with the prefix removed.
func plain(v interface{}) interface{} {
	switch x := v.(type) {
	case string:
		return unmap(x)
	case []byte:
		return unmap(string(x))
	case time.Time:
		return x.Unix()
	case amqp.Table:
		out := Obj{}
		for k, e := range x {
			out[k] = plain(e)
		}
		return out
	case map[string]interface{}:
		out := Obj{}
		for k, e := range x {
			out[k] = plain(e)
		}
		return out
	case []interface{}:
		out := make([]interface{}, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	case amqp.Decimal:
		return fmt.Sprintf("%v", x)
	case nil:
		return nil
	}
	if v == nil {
		return Obj{}
	}
	return v
}

func main() {
	url := os.Getenv("AMQP_URL")
	if len(os.Args) > 1 {
		url = os.Args[1]
	}
	if url == "" {
		url = "amqp://guest:guest@127.0.0.1:5672/%2F"
	}
	for _, l := range leftOut {
		fmt.Fprintln(os.Stderr, "left out: "+l)
	}
	run, err := NewRun(url)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot connect:", err)
		os.Exit(1)
	}
	declareTopology(run)
	startConsumers(run)
	run.Play(timedActions(run), endMs, graceMs)
	measuredAt := run.NowMs()
	report := run.Report(scenarioName, endMs, measuredAt, run.Depths(queues))
	run.Cleanup(queues, exchanges)
	out, _ := json.MarshalIndent(report, "", "  ")
	fmt.Println(string(out))
}

// Package lockoracles is the Go shim of lock-oracles' holder protocol, version 1
// (docs/holder-protocol.md). A target is a `package main` file whose main calls
// lockoracles.Run(&LockTarget{}); Run says `ready` on fd 4, then answers the harness's requests
// from fd 3, one JSON object per line, each init/call/shutdown in a goroutine of its own. The
// target's exported methods named as targets/contract.ts's members (Acquire, Release, Extend,
// Job, Write, Read, Query, StoreKey, Connect, Close, …) are found by reflection and called with
// an *Env first; a method may return a value, an error, or both (an error is the member's throw).
// Stdlib only, Go 1.19. The harness builds the target with `go build` (GOPATH mode, offline) and
// caches the binary.
//
// Acquire returns a lease (a map, a struct or a pointer to one; its Token string and Fence
// integer, as a field or map entry, are reported) or nil when denied. Optional methods Name(),
// Description() and FenceStore() return strings for the handshake.
package lockoracles

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unicode"
)

// Protocol is the version of the holder protocol this shim speaks.
const Protocol = 1

const sdk = "lockoracles.go 1"

var memberNames = []string{"connect", "storeKey", "acquire", "release", "extend", "query", "job", "leader",
	"timeout", "write", "read", "stamp", "decide", "schedule", "inspect", "node", "close"}

// ErrEffectIndefinite is returned by Env.Effect when nobody can say whether the write reached the resource.
var ErrEffectIndefinite = errors.New("the effect's outcome is indefinite")

// EffectReceipt is the resource's answer to a protected write: accepted in order Seq, or refused (a stale fence).
type EffectReceipt struct {
	Accepted bool   `json:"accepted"`
	Seq      int64  `json:"seq"`
	Reason   string `json:"reason,omitempty"`
}

// Env is what a member is given: the store, the lock's key and TTL, parameters, and the calls to the harness.
type Env struct {
	Holder     string
	URL        string         `json:"url"`
	Key        string         `json:"key"`
	TTLMs      int64          `json:"ttlMs"`
	Params     map[string]any `json:"params"`
	Dir        string         `json:"dir"`
	URLs       []string       `json:"urls"`
	Sentinels  []string       `json:"sentinels"`
	MasterName string         `json:"masterName"`
	CounterURL string         `json:"counterUrl"`
	FenceURL   string         `json:"fenceUrl"`
	// Context is cancelled when the harness asks the job, leader or schedule to stop (the protocol's abort).
	Context context.Context `json:"-"`
	shim    *shim
}

// Effect makes the protected write: it blocks until the harness answers, and returns
// ErrEffectIndefinite (wrapped, with the reason) when the outcome cannot be known.
func (env *Env) Effect(name string, detail map[string]any) (EffectReceipt, error) {
	if detail == nil {
		detail = map[string]any{}
	}
	reply := env.shim.await(map[string]any{"t": "effect", "name": name, "detail": detail, "at": now()})
	if reply == nil {
		return EffectReceipt{}, fmt.Errorf("%w: the harness closed the protocol pipe while the effect waited", ErrEffectIndefinite)
	}
	if reply.Outcome != "definite" || reply.Receipt == nil {
		return EffectReceipt{}, fmt.Errorf("%w: %s", ErrEffectIndefinite, reply.Reason)
	}
	return *reply.Receipt, nil
}

// Seam is a named point the harness may hold the holder at (a latch): it blocks until the harness lets go.
func (env *Env) Seam(name string) {
	env.shim.await(map[string]any{"t": "seam", "name": name})
}

// Log writes a line in the run's history, attributed to this holder.
func (env *Env) Log(format string, args ...any) {
	env.shim.send(map[string]any{"t": "log", "message": fmt.Sprintf(format, args...)})
}

type message struct {
	T       string          `json:"t"`
	ID      *int64          `json:"id"`
	Init    json.RawMessage `json:"init"`
	Member  string          `json:"member"`
	Args    []any           `json:"args"`
	LeaseID *int64          `json:"leaseId"`
	Outcome string          `json:"outcome"`
	Receipt *EffectReceipt  `json:"receipt"`
	Reason  string          `json:"reason"`
	Op      string          `json:"op"`
	Name    string          `json:"name"`
	Detail  map[string]any  `json:"detail"`
	Message string          `json:"message"`
}

type shimError struct{ code, message string }

func (e *shimError) Error() string { return e.message }

type shim struct {
	target    reflect.Value
	methods   map[string]reflect.Value
	out       *os.File
	writeLock sync.Mutex
	mu        sync.Mutex
	env       *Env
	cancel    context.CancelFunc
	pending   map[int64]chan *message
	callID    int64
	leases    map[int64]any
	leaseID   int64
	schedules []any
	shutdown  chan error
}

// Run serves the protocol for target until the harness closes fd 3 or sends close; it never returns.
func Run(target any) {
	s := &shim{target: reflect.ValueOf(target), methods: map[string]reflect.Value{}, out: os.NewFile(4, "protocol-out"),
		pending: map[int64]chan *message{}, leases: map[int64]any{}}
	members := []string{}
	for _, name := range memberNames {
		if m := s.target.MethodByName(strings.ToUpper(name[:1]) + name[1:]); m.IsValid() {
			s.methods[name] = m
			members = append(members, name)
		}
	}
	ready := map[string]any{"t": "ready", "protocol": Protocol, "language": "go", "runtime": runtime.Version(),
		"sdk": sdk, "pid": os.Getpid(), "members": members}
	for method, field := range map[string]string{"Name": "name", "Description": "description", "FenceStore": "fenceStore"} {
		if m := s.target.MethodByName(method); m.IsValid() && m.Type().NumIn() == 0 && m.Type().NumOut() == 1 {
			ready[field] = m.Call(nil)[0].Interface()
		}
	}
	s.send(ready)
	in := bufio.NewReader(os.NewFile(3, "protocol-in"))
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			break // end of file on fd 3; a torn last line (no newline) is dropped
		}
		var m message
		if json.Unmarshal(line, &m) != nil {
			s.send(map[string]any{"t": "log", "code": "bad-message", "message": "not a JSON object: " + string(line)})
			continue
		}
		s.handle(&m)
	}
	// The harness is gone: effects still waiting are indefinite, and the holder exits.
	s.mu.Lock()
	for _, waiting := range s.pending {
		close(waiting)
	}
	s.mu.Unlock()
	os.Exit(0)
}

func (s *shim) handle(m *message) {
	switch m.T {
	case "init":
		go s.answer(m.ID, func() (any, error) { return s.init(m.Init) })
	case "call":
		go s.answer(m.ID, func() (any, error) { return s.call(m) })
	case "selftest":
		go s.answer(m.ID, func() (any, error) { return s.selftest(m) })
	case "effect-reply", "seam-reply":
		s.mu.Lock()
		waiting := s.pending[deref(m.ID)]
		delete(s.pending, deref(m.ID))
		s.mu.Unlock()
		if waiting != nil {
			waiting <- m
		}
	case "abort":
		s.mu.Lock()
		if s.cancel != nil {
			s.cancel()
		}
		s.mu.Unlock()
	case "shutdown":
		s.mu.Lock()
		s.shutdown = make(chan error, 1)
		done := s.shutdown
		s.mu.Unlock()
		go s.answer(m.ID, func() (any, error) {
			_, err := s.invoke("close", s.currentEnv())
			done <- err
			close(done)
			return nil, err
		})
	case "close":
		go s.close(m.ID)
	case "fs-gate":
	case "clock":
		s.send(failure(m.ID, "unsupported", "the Go shim has no fake clock: the clock faults are Node-only"))
	default:
		bad := failure(m.ID, "bad-message", "unknown message type "+m.T)
		if m.ID == nil {
			bad["t"] = "log"
		}
		s.send(bad)
	}
}

// answer runs one request and sends its one result; a panic in a member is its throw, with the stack.
func (s *shim) answer(id *int64, work func() (any, error)) {
	began := now()
	result := map[string]any{"t": "result", "id": id}
	func() {
		defer func() {
			if p := recover(); p != nil {
				result["ok"], result["code"], result["error"] = false, "threw", fmt.Sprintf("panic: %v\n%s", p, debug.Stack())
			}
		}()
		value, err := work()
		var shimErr *shimError
		switch {
		case errors.As(err, &shimErr):
			result["ok"], result["code"], result["error"] = false, shimErr.code, shimErr.message
		case err != nil:
			result["ok"], result["code"], result["error"] = false, "threw", fmt.Sprintf("%+v", err)
		default:
			result["ok"], result["value"] = true, value
		}
	}()
	result["began"], result["ended"] = began, now()
	s.send(result)
}

func (s *shim) init(raw json.RawMessage) (any, error) {
	env := &Env{shim: s}
	if err := json.Unmarshal(raw, env); err != nil {
		return nil, &shimError{"bad-message", "init: " + err.Error()}
	}
	env.Holder = os.Getenv("LOCK_ORACLES_HOLDER")
	ctx, cancel := context.WithCancel(context.Background())
	env.Context = ctx
	s.mu.Lock()
	s.env, s.cancel = env, cancel
	s.mu.Unlock()
	if _, err := s.invoke("connect", env); err != nil {
		return nil, err
	}
	value := map[string]any{}
	if _, ok := s.methods["storeKey"]; ok {
		key, err := s.invoke("storeKey", env)
		if err != nil {
			return nil, err
		}
		value["storeKey"] = key
	}
	return value, nil
}

func (s *shim) currentEnv() *Env {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.env == nil {
		return &Env{shim: s, Context: context.Background()}
	}
	return s.env
}

func (s *shim) call(m *message) (any, error) {
	s.mu.Lock()
	env := s.env
	s.mu.Unlock()
	if env == nil {
		return nil, &shimError{"not-ready", "a call before init"}
	}
	if _, ok := s.methods[m.Member]; !ok {
		return nil, &shimError{"no-member", "the target has no method " + exported(m.Member)}
	}
	if m.Member == "decide" {
		return s.decide(env, m.Args)
	}
	args := []any{env}
	if m.Member == "release" || m.Member == "extend" {
		s.mu.Lock()
		lease, ok := s.leases[deref(m.LeaseID)]
		s.mu.Unlock()
		if !ok {
			return nil, &shimError{"unknown-lease", fmt.Sprintf("lease %d was not issued by this holder", deref(m.LeaseID))}
		}
		args = append(args, lease)
	}
	returned, err := s.invoke(m.Member, append(args, m.Args...)...)
	if err != nil {
		return nil, err
	}
	switch m.Member {
	case "acquire":
		return s.lease(returned)
	case "extend":
		confirmed, ok := returned.(bool)
		if !ok {
			return nil, &shimError{"bad-return", fmt.Sprintf("Extend returned %v: return true only when the store confirmed it", returned)}
		}
		return confirmed, nil
	case "schedule":
		s.mu.Lock()
		if returned != nil {
			s.schedules = append(s.schedules, returned)
		}
		s.mu.Unlock()
		return nil, nil
	case "read", "inspect", "node":
		return returned, nil
	}
	return nil, nil
}

func (s *shim) lease(returned any) (any, error) {
	if returned == nil || returned == false {
		return nil, nil
	}
	v := reflect.ValueOf(returned)
	if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Map) && v.IsNil() {
		return nil, nil // a typed nil: denied
	}
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct && v.Kind() != reflect.Map {
		return nil, &shimError{"bad-return", fmt.Sprintf("Acquire returned %v: return a lease (a struct, a pointer to one or a map) or nil when denied", returned)}
	}
	s.mu.Lock()
	s.leaseID++
	id := s.leaseID
	s.leases[id] = returned
	s.mu.Unlock()
	value := map[string]any{"leaseId": id}
	if token, ok := property(v, "Token").(string); ok {
		value["token"] = token
	}
	if fence := reflect.ValueOf(property(v, "Fence")); fence.IsValid() && fence.CanInt() {
		value["fence"] = fence.Int()
	}
	return value, nil
}

// property is a lease's Token or Fence: a struct field, or a map entry under "token" / "fence".
func property(v reflect.Value, name string) any {
	if v.Kind() == reflect.Map {
		if entry := v.MapIndex(reflect.ValueOf(strings.ToLower(name))); entry.IsValid() && v.Type().Key().Kind() == reflect.String {
			return entry.Interface()
		}
		return nil
	}
	if field := v.FieldByName(name); field.IsValid() && field.CanInterface() {
		return field.Interface()
	}
	return nil
}

func (s *shim) decide(env *Env, args []any) (any, error) {
	var existing any
	if raw, _ := args[1].(string); raw != "" {
		if err := json.Unmarshal([]byte(raw), &existing); err != nil {
			return nil, &shimError{"bad-message", "decide: existing is not JSON: " + err.Error()}
		}
	}
	var incoming any = map[string]any{"value": args[0], "updatedAt": time.Now().UnixMilli()}
	if _, ok := s.methods["stamp"]; ok {
		stamped, err := s.invoke("stamp", env, args[0], existing)
		if err != nil {
			return nil, err
		}
		incoming = stamped
	}
	returned, err := s.invoke("decide", incoming, existing)
	if err != nil {
		return nil, err
	}
	replaces, ok := returned.(bool)
	if !ok {
		return nil, &shimError{"bad-return", fmt.Sprintf("Decide returned %v: return a bool", returned)}
	}
	encoded, err := json.Marshal(incoming)
	if err != nil {
		return nil, err
	}
	return map[string]any{"replaces": replaces, "incoming": string(encoded)}, nil
}

func (s *shim) selftest(m *message) (any, error) {
	env := s.currentEnv()
	switch m.Op {
	case "effect":
		receipt, err := env.Effect(m.Name, m.Detail)
		if errors.Is(err, ErrEffectIndefinite) {
			return map[string]any{"raised": "indefinite"}, nil
		}
		return receipt, err
	case "seam":
		env.Seam(m.Name)
		return nil, nil
	case "log":
		env.Log("%s", m.Message)
		return nil, nil
	case "raise":
		return nil, errors.New(m.Message)
	}
	return nil, &shimError{"unsupported", "no selftest probe " + m.Op}
}

// close stops every schedule handle, waits for a running shutdown's Close or calls Close, answers, then exits.
func (s *shim) close(id *int64) {
	s.answer(id, func() (any, error) {
		s.mu.Lock()
		handles, shutdown := s.schedules, s.shutdown
		s.mu.Unlock()
		for _, handle := range handles {
			if stop := reflect.ValueOf(handle).MethodByName("Stop"); stop.IsValid() {
				stop.Call(nil)
			}
		}
		if shutdown != nil {
			return nil, <-shutdown
		}
		_, err := s.invoke("close", s.currentEnv())
		return nil, err
	})
	os.Exit(0)
}

// invoke calls a member by reflection: arguments converted to its parameter types; of its
// results, an error is the member's throw and the first other one its value.
func (s *shim) invoke(member string, args ...any) (any, error) {
	method, ok := s.methods[member]
	if !ok {
		return nil, nil
	}
	t := method.Type()
	if t.NumIn() != len(args) {
		return nil, &shimError{"bad-return", fmt.Sprintf("%s takes %d parameters; the protocol passes %d (see targets/contract.ts)", exported(member), t.NumIn(), len(args))}
	}
	in := make([]reflect.Value, len(args))
	for i, arg := range args {
		want := t.In(i)
		if arg == nil {
			in[i] = reflect.Zero(want)
			continue
		}
		v := reflect.ValueOf(arg)
		if !v.Type().AssignableTo(want) {
			if !v.CanConvert(want) {
				return nil, &shimError{"bad-return", fmt.Sprintf("%s's parameter %d is %s; the protocol passes %s", exported(member), i+1, want, v.Type())}
			}
			v = v.Convert(want)
		}
		in[i] = v
	}
	var value any
	var err error
	for _, out := range method.Call(in) {
		if out.Type() == reflect.TypeOf((*error)(nil)).Elem() {
			if !out.IsNil() {
				err = out.Interface().(error)
			}
		} else if value == nil {
			value = out.Interface()
		}
	}
	return value, err
}

// await sends a call with the next id and blocks until its reply; nil when fd 3 ended first.
func (s *shim) await(call map[string]any) *message {
	reply := make(chan *message, 1)
	s.mu.Lock()
	s.callID++
	call["id"] = s.callID
	s.pending[s.callID] = reply
	s.mu.Unlock()
	s.send(call)
	return <-reply
}

// send writes one message as one line in one write, under a lock: two goroutines' messages never interleave.
func (s *shim) send(message map[string]any) {
	line, err := json.Marshal(message)
	if err != nil {
		line, _ = json.Marshal(map[string]any{"t": "log", "message": "unencodable message: " + err.Error()})
	}
	s.writeLock.Lock()
	defer s.writeLock.Unlock()
	_, _ = s.out.Write(append(line, '\n'))
}

func failure(id *int64, code, message string) map[string]any {
	return map[string]any{"t": "result", "id": id, "ok": false, "code": code, "error": message}
}

func exported(member string) string {
	r := []rune(member)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

func deref(id *int64) int64 {
	if id == nil {
		return -1
	}
	return *id
}

var started = time.Now()

// now is the holder's monotonic clock in ms (time.Since reads the monotonic reading).
func now() float64 {
	return float64(time.Since(started).Microseconds()) / 1000
}

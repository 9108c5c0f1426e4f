// redigo 1.8.3 (Debian's golang-github-gomodule-redigo-dev): the lock taken with SET NX PX and a
// random token, released and extended by Lua scripts that compare the token first (V310 PASS):
// a holder whose lease lapsed cannot delete the next holder's lock.
package main

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/gomodule/redigo/redis"
	"lockoracles"
)

type lease struct{ Token string }

var (
	compareAndDelete = redis.NewScript(1, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`)
	compareAndExtend = redis.NewScript(1, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end`)
)

type redigoCompareDelete struct{ conn redis.Conn }

func (t *redigoCompareDelete) Name() string { return "redigo SET NX PX, compare-and-delete release" }

func (t *redigoCompareDelete) Description() string {
	return "redigo 1.8.3: SET key token NX PX ttl; release and extend by Lua scripts that compare the token"
}

func (t *redigoCompareDelete) Connect(env *lockoracles.Env) (err error) {
	t.conn, err = redis.DialURL(env.URL)
	return err
}

func (t *redigoCompareDelete) Acquire(env *lockoracles.Env) (*lease, error) {
	token := newToken()
	reply, err := redis.String(t.conn.Do("SET", env.Key, token, "NX", "PX", env.TTLMs))
	if err == redis.ErrNil {
		return nil, nil // held by another: denied
	}
	if err != nil || reply != "OK" {
		return nil, err
	}
	return &lease{Token: token}, nil
}

func (t *redigoCompareDelete) Release(env *lockoracles.Env, l *lease) error {
	_, err := compareAndDelete.Do(t.conn, env.Key, l.Token)
	return err
}

func (t *redigoCompareDelete) Extend(env *lockoracles.Env, l *lease, ttlMs int64) (bool, error) {
	extended, err := redis.Int(compareAndExtend.Do(t.conn, env.Key, l.Token, ttlMs))
	return extended == 1, err
}

func (t *redigoCompareDelete) Close(env *lockoracles.Env) error { return t.conn.Close() }

func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func main() { lockoracles.Run(&redigoCompareDelete{}) }

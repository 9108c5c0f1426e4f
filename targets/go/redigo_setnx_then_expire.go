// redigo 1.8.3 (Debian's golang-github-gomodule-redigo-dev): the lock taken with SETNX, then its
// TTL set by a second command, EXPIRE (V311 FAIL under --explore): a holder that dies between the
// two leaves a key with no TTL, and nobody can take the lock again. Released by a Lua
// compare-and-delete, so only the acquire is at fault.
package main

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/gomodule/redigo/redis"
	"lockoracles"
)

type lease struct{ Token string }

var compareAndDelete = redis.NewScript(1, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`)

type redigoSetnxExpire struct{ conn redis.Conn }

func (t *redigoSetnxExpire) Name() string { return "redigo SETNX then EXPIRE" }

func (t *redigoSetnxExpire) Description() string {
	return "redigo 1.8.3: SETNX key token, then EXPIRE key ttl as a second command (not atomic)"
}

func (t *redigoSetnxExpire) Connect(env *lockoracles.Env) (err error) {
	t.conn, err = redis.DialURL(env.URL)
	return err
}

func (t *redigoSetnxExpire) Acquire(env *lockoracles.Env) (*lease, error) {
	token := newToken()
	set, err := redis.Int(t.conn.Do("SETNX", env.Key, token))
	if err != nil || set == 0 {
		return nil, err
	}
	env.Seam("acquire:after-set") // V311 --variant between-commands kills A here
	seconds := (env.TTLMs + 999) / 1000
	if _, err := t.conn.Do("EXPIRE", env.Key, seconds); err != nil {
		return nil, err
	}
	return &lease{Token: token}, nil
}

func (t *redigoSetnxExpire) Release(env *lockoracles.Env, l *lease) error {
	_, err := compareAndDelete.Do(t.conn, env.Key, l.Token)
	return err
}

func (t *redigoSetnxExpire) Close(env *lockoracles.Env) error { return t.conn.Close() }

func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func main() { lockoracles.Run(&redigoSetnxExpire{}) }

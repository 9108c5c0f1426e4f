// redigo 1.8.3 (Debian's golang-github-gomodule-redigo-dev): the lock taken with SET NX PX and a
// random token, released with a bare DEL of the key (V310 FAIL): a release that does not check
// the token deletes whichever holder's lock is there.
package main

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/gomodule/redigo/redis"
	"lockoracles"
)

type lease struct{ Token string }

type redigoBareDel struct{ conn redis.Conn }

func (t *redigoBareDel) Name() string { return "redigo SET NX PX, bare DEL release" }

func (t *redigoBareDel) Description() string {
	return "redigo 1.8.3: SET key token NX PX ttl; release is DEL key, without comparing the token"
}

func (t *redigoBareDel) Connect(env *lockoracles.Env) (err error) {
	t.conn, err = redis.DialURL(env.URL)
	return err
}

func (t *redigoBareDel) Acquire(env *lockoracles.Env) (*lease, error) {
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

func (t *redigoBareDel) Release(env *lockoracles.Env, l *lease) error {
	_, err := t.conn.Do("DEL", env.Key)
	return err
}

func (t *redigoBareDel) Close(env *lockoracles.Env) error { return t.conn.Close() }

func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func main() { lockoracles.Run(&redigoBareDel{}) }

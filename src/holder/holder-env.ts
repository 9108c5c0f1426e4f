/**
 * The environment a holder process starts with: the harness's own, without NODE_EXTRA_CA_CERTS.
 * Node 20 reads and parses that certificate file at every start, whether or not the process ever
 * opens a TLS connection: ~75 ms of CPU per holder on the project's machine, where it names the
 * system bundle (144 certificates), against ~35 ms for the rest of node's start (docs/benchmarks.md,
 * "Holder start-up"). A holder talks only to the scratch store the harness started, on loopback
 * and without TLS, so it never needs an extra certificate authority.
 */
const NOT_PASSED = ['NODE_EXTRA_CA_CERTS'];

export function holderEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !NOT_PASSED.includes(name)));
}

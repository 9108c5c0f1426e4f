/**
 * One store server as a testcontainers container, in the shape of testcontainers' own modules
 * (e.g. @testcontainers/redis): the with…() calls only record, start() applies the recipe and
 * returns a typed started container that knows its port and can pause, resume and kill itself.
 *
 * The container runs on Docker's "host" network with the server bound to 127.0.0.1:`port`, so
 * the store is reachable only on this machine's loopback and no traffic leaves it. It carries the
 * run's labels (src/stores/labels.ts), so a SIGKILLed run's container is found and removed later.
 */
import type { StartedTestContainer } from 'testcontainers';
import { AbstractStartedContainer, GenericContainer, getContainerRuntimeClient, Wait } from './testcontainers.ts';
import { spawnSync } from 'node:child_process';
import { onCleanup } from '../process/cleanup.ts';
import { runOwner } from '../process/run-owner.ts';
import { OWNER_PID_LABEL, OWNER_START_LABEL, RUN_LABEL, STORE_LABEL } from './labels.ts';
import type { StoreKind } from './types.ts';

/** One server's command line in its image, resolved for its port: what the container runs. */
export interface ContainerServer {
  command: string[];
  env?: Record<string, string>;
  /** Files written into the container before it starts. */
  files?: Array<{ path: string; content: string }>;
  /** A line the server prints once it accepts connections (testcontainers' log wait strategy). */
  readyLog: RegExp;
}

/** How many of the server's last output lines a start failure quotes. */
const LINES_QUOTED = 15;

export class StoreContainer extends GenericContainer {
  /** The server's latest output lines, quoted when it fails to start (the log wait only says the stream ended). */
  private readonly lastLines: string[] = [];

  constructor(
    image: string,
    kind: StoreKind,
    private readonly server: ContainerServer,
    private readonly port: number,
  ) {
    super(image);
    const owner = runOwner();
    this.withNetworkMode('host')
      .withLabels({
        [STORE_LABEL]: kind,
        [RUN_LABEL]: owner.runId,
        [OWNER_PID_LABEL]: String(owner.pid),
        [OWNER_START_LABEL]: owner.pidStart,
      })
      .withStartupTimeout(30_000)
      .withWaitStrategy(Wait.forLogMessage(server.readyLog))
      .withLogConsumer((stream) =>
        stream.on('data', (chunk: string | Buffer) => {
          for (const line of String(chunk).split('\n').filter(Boolean)) {
            this.lastLines.push(line);
            if (this.lastLines.length > LINES_QUOTED) this.lastLines.shift();
          }
        }),
      );
  }

  private onCreated?: (containerId: string) => void;

  /** Called with the container's id as soon as the engine created it, before it starts (for cleanup). */
  withOnCreated(onCreated: (containerId: string) => void): this {
    this.onCreated = onCreated;
    return this;
  }

  protected override async containerCreated(containerId: string): Promise<void> {
    this.onCreated?.(containerId);
  }

  /**
   * Start the container with its removal registered for every exit path from the moment the engine
   * created it: one force-remove request (kill + remove, paused or not), which the engine finishes
   * even if this process dies right after sending it (stop-then-remove could leave an exited
   * container). A container that fails to start is removed before the error is thrown.
   */
  async startRemovable(label: string): Promise<{ started: StartedStoreContainer; remove: () => Promise<void> }> {
    let remove: (() => Promise<void>) | undefined;
    this.withOnCreated((id) => {
      remove = onCleanup(
        `remove ${label}`,
        async () => (await getContainerRuntimeClient()).container.getById(id).remove({ force: true, v: true }),
        () => void spawnSync('docker', ['rm', '--force', id], { stdio: 'ignore', timeout: 5000 }),
      );
    });
    try {
      const started = await this.start();
      return { started, remove: () => remove?.() ?? Promise.resolve() };
    } catch (error) {
      await remove?.().catch(() => undefined);
      throw this.withServerOutput(error as Error, label);
    }
  }

  /** The start error, with what the server itself printed last (e.g. a port it could not bind). */
  private withServerOutput(error: Error, label: string): Error {
    const said = this.lastLines.length
      ? `its last output lines:\n  ${this.lastLines.join('\n  ')}`
      : 'it printed nothing';
    return new Error(`${label} did not start: ${error.message}; ${said}`, { cause: error });
  }

  override async start(): Promise<StartedStoreContainer> {
    this.withCommand(this.server.command);
    if (this.server.env) this.withEnvironment(this.server.env);
    const files = this.server.files ?? [];
    if (files.length)
      this.withCopyContentToContainer(files.map((f) => ({ content: f.content, target: f.path, mode: 0o644 })));
    return new StartedStoreContainer(await super.start(), this.port);
  }
}

export class StartedStoreContainer extends AbstractStartedContainer {
  constructor(
    started: StartedTestContainer,
    private readonly port: number,
  ) {
    super(started);
  }

  /** The server's port on this machine's loopback (host network: no mapping). */
  getPort(): number {
    return this.port;
  }

  /** docker pause: the cgroup freezer stops every process in the container; its sockets stay open. */
  async pause(): Promise<void> {
    await (await this.engineContainer()).pause();
  }

  async resume(): Promise<void> {
    await (await this.engineContainer()).unpause();
  }

  /** docker kill with SIGKILL: the server dies at once, as with the local runtime's SIGKILL. */
  async kill(): Promise<void> {
    const container = await this.engineContainer();
    if (!(await container.inspect()).State.Running) return; // it exited already (a SHUTDOWN)
    await container.kill({ signal: 'SIGKILL' });
    await container.wait();
  }

  /** Resolves when the server (the container's process) has exited by itself, or after `timeoutMs`. */
  async exited(timeoutMs: number): Promise<void> {
    const container = await this.engineContainer();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([container.wait(), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  /** The engine's handle on this container, through testcontainers' runtime client. */
  private async engineContainer() {
    return (await getContainerRuntimeClient()).container.getById(this.getId());
  }
}

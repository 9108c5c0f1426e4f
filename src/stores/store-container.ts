/**
 * One store server as a testcontainers container, in the shape of testcontainers' own modules
 * (e.g. @testcontainers/redis): the with…() calls only record, start() applies the recipe and
 * returns a typed started container that knows its port and can pause, resume and kill itself.
 *
 * The container runs on Docker's "host" network with the server bound to 127.0.0.1:`port`, so
 * the store is reachable only on this machine's loopback and no traffic leaves it.
 */
import { AbstractStartedContainer, GenericContainer, getContainerRuntimeClient, Wait, type StartedTestContainer } from 'testcontainers';
import type { ContainerRecipe, StoreKind } from './types.ts';

/** Label on every store container the harness starts (to find leftovers: docker ps -a --filter label=lock-oracles.store). */
export const STORE_LABEL = 'lock-oracles.store';

export class StoreContainer extends GenericContainer {
  constructor(
    image: string,
    kind: StoreKind,
    private readonly recipe: ContainerRecipe,
    private readonly port: number,
  ) {
    super(image);
    this.withNetworkMode('host')
      .withLabels({ [STORE_LABEL]: kind })
      .withStartupTimeout(30_000)
      .withWaitStrategy(Wait.forLogMessage(recipe.readyLog));
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

  override async start(): Promise<StartedStoreContainer> {
    this.withCommand(this.recipe.command(this.port));
    if (this.recipe.env) this.withEnvironment(this.recipe.env);
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
    await container.kill({ signal: 'SIGKILL' });
    await container.wait();
  }

  /** The engine's handle on this container, through testcontainers' runtime client. */
  private async engineContainer() {
    return (await getContainerRuntimeClient()).container.getById(this.getId());
  }
}

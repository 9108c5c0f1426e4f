/** Types for hpack.js 2.1.6 (no @types package): the HPACK decompressor the gRPC framer uses. */
declare module 'hpack.js' {
  interface Decompressor {
    write(block: Buffer): boolean;
    execute(): void;
    read(): { name: string; value: string } | null;
  }
  const hpack: { decompressor: { create(options: { table: { size: number } }): Decompressor } };
  export default hpack;
}

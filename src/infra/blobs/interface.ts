/** Where uploaded and cached files live. Keys are relative paths such as `accounts/avatars/123/abc.png`. */
export interface BlobStore {
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<{ data: Uint8Array; contentType: string } | undefined>;
  /** Size and type of a stored file without reading it, or undefined when there is none. */
  stat(key: string): Promise<{ size: number; contentType: string } | undefined>;
  /**
   * Bytes `first` to `last` (inclusive) of a stored file, read as the stream is consumed: a
   * stream never read opens nothing.
   */
  stream(key: string, first: number, last: number): ReadableStream<Uint8Array>;
  delete(key: string): Promise<void>;
  /** Public URL of a stored file. */
  url(key: string): string;
}

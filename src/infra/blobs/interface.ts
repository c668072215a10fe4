/** Where uploaded and cached files live. Keys are relative paths such as `accounts/avatars/123/abc.png`. */
export interface BlobStore {
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<{ data: Uint8Array; contentType: string } | undefined>;
  delete(key: string): Promise<void>;
  /** Public URL of a stored file. */
  url(key: string): string;
}

// A .zip of files stored as they are (method 0, no compression: the page's OBJ sequences, record.ts),
// as the format's specification (PKWARE APPNOTE 6.3) lays one out: each file's local header and
// bytes, then the central directory and its end record. Names are ASCII; a file or the archive
// past 4 GiB, or more than 65 535 files, would need ZIP64 and is refused.

export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_DIRECTORY = 0x06054b50;
const VERSION = 20; // 2.0: what stored files need
const LOCAL_SIZE = 30;
const CENTRAL_SIZE = 46;
const END_SIZE = 22;
const MOST_FILES = 0xffff;
const MOST_BYTES = 0xffffffff;
// MS-DOS date and time of 1980-01-01 00:00 (the format's epoch): the files' time, so a recording's
// archive depends on its contents alone.
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

let crcTable: Uint32Array | null = null;

/** CRC-32 (IEEE 802.3, reflected, as zip and PNG use it). */
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The archive of `entries`, in their order. */
export function zipStored(entries: readonly ZipEntry[]): Uint8Array {
  if (entries.length > MOST_FILES) throw new Error(`a zip without ZIP64 holds at most ${MOST_FILES} files`);
  const names = entries.map((e) => {
    if (!/^[\x20-\x7e]+$/.test(e.name)) throw new Error(`zip entry name "${e.name}" is not printable ASCII`);
    return new TextEncoder().encode(e.name);
  });
  const crcs = entries.map((e) => crc32(e.bytes));
  let size = END_SIZE;
  entries.forEach((e, i) => (size += LOCAL_SIZE + CENTRAL_SIZE + 2 * names[i].length + e.bytes.length));
  if (size > MOST_BYTES) throw new Error(`a zip without ZIP64 holds at most 4 GiB (this one: ${size} bytes)`);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let at = 0;
  const u16 = (v: number) => (view.setUint16(at, v, true), (at += 2));
  const u32 = (v: number) => (view.setUint32(at, v, true), (at += 4));
  const fields = (i: number) => {
    u16(0); // flags
    u16(0); // method: stored
    u16(DOS_TIME);
    u16(DOS_DATE);
    u32(crcs[i]);
    u32(entries[i].bytes.length); // compressed size
    u32(entries[i].bytes.length);
    u16(names[i].length);
    u16(0); // extra field
  };
  const offsets: number[] = [];
  entries.forEach((e, i) => {
    offsets.push(at);
    u32(LOCAL_HEADER);
    u16(VERSION);
    fields(i);
    out.set(names[i], at);
    at += names[i].length;
    out.set(e.bytes, at);
    at += e.bytes.length;
  });
  const directory = at;
  entries.forEach((_, i) => {
    u32(CENTRAL_HEADER);
    u16(VERSION); // made by
    u16(VERSION); // needed
    fields(i);
    u16(0); // comment
    u16(0); // disk
    u16(0); // internal attributes
    u32(0); // external attributes
    u32(offsets[i]);
    out.set(names[i], at);
    at += names[i].length;
  });
  const directorySize = at - directory;
  u32(END_OF_DIRECTORY);
  u16(0); // this disk
  u16(0); // the directory's disk
  u16(entries.length);
  u16(entries.length);
  u32(directorySize);
  u32(directory);
  u16(0); // comment
  return out;
}

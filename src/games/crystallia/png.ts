import { deflateSync } from 'node:zlib';

/**
 * A PNG writer for the picture: 8-bit RGB, the "Up" filter on every row, deflated by node's zlib
 * at a low level. Skia's own encoder (@napi-rs/canvas `toBuffer('image/png')`) compresses at a
 * fixed high level with adaptive filters, which is 85-90% of a render's time for a picture of a
 * million pixels (bench/crystallia.ts); this one is about three times faster and its files are
 * about as small, because the picture is mostly flat colour. A test decodes its output with Skia
 * and compares every pixel with Skia's own encoding.
 *
 * `rgba` is the canvas's raw pixels (`canvas.data()`: RGBA, premultiplied); the picture is opaque
 * everywhere, so premultiplied and straight colours are the same and alpha is dropped.
 */

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(...parts: Buffer[]): number {
  let c = 0xffffffff;
  for (const b of parts) for (let i = 0; i < b.length; i++) c = CRC_TABLE[(c ^ b[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(head.subarray(4), data), 0);
  return Buffer.concat([head, data, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** An opaque RGBA picture as a PNG file. */
export function encodePng(width: number, height: number, rgba: Uint8Array, level = 1): Buffer {
  if (rgba.length !== width * height * 4) throw new Error(`encodePng: ${rgba.length} bytes for ${width}x${height}`);
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  let o = 0;
  for (let y = 0; y < height; y++) {
    raw[o++] = 2; // Up: each byte minus the byte above it
    const row = y * width * 4;
    const up = row - width * 4;
    for (let x = 0; x < width; x++) {
      const i = row + x * 4;
      if (y === 0) {
        raw[o++] = rgba[i]!;
        raw[o++] = rgba[i + 1]!;
        raw[o++] = rgba[i + 2]!;
      } else {
        const j = up + x * 4;
        raw[o++] = (rgba[i]! - rgba[j]!) & 0xff;
        raw[o++] = (rgba[i + 1]! - rgba[j + 1]!) & 0xff;
        raw[o++] = (rgba[i + 2]! - rgba[j + 2]!) & 0xff;
      }
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bits per channel
  ihdr[9] = 2; // RGB
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level })), chunk('IEND', Buffer.alloc(0))]);
}

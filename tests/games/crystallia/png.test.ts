import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../../../src/games/crystallia/png.ts';

/** The picture's PNG writer: what it writes decodes (with Skia) to exactly the pixels drawn, as Skia's own encoding does. */
describe('encodePng', () => {
  it('round-trips every pixel of an opaque drawing', async () => {
    const c = createCanvas(123, 77);
    const g = c.getContext('2d');
    g.fillStyle = '#1e222a';
    g.fillRect(0, 0, 123, 77);
    for (let i = 0; i < 40; i++) {
      g.beginPath();
      g.arc((i * 37) % 123, (i * 53) % 77, 3 + (i % 9), 0, Math.PI * 2);
      g.fillStyle = `hsl(${i * 29}, 70%, ${30 + (i % 5) * 10}%)`;
      g.fill();
    }
    g.font = '14px sans-serif';
    g.fillStyle = '#fff';
    g.fillText('Crystallia', 5, 40);
    const decode = async (png: Buffer) => {
      const img = await loadImage(png);
      const d = createCanvas(img.width, img.height);
      d.getContext('2d').drawImage(img, 0, 0);
      return d.getContext('2d').getImageData(0, 0, img.width, img.height).data;
    };
    const ours = encodePng(123, 77, c.data());
    expect(ours.subarray(1, 4).toString('ascii')).toBe('PNG');
    const [a, b] = await Promise.all([decode(ours), decode(c.toBuffer('image/png'))]);
    expect(a.length).toBe(123 * 77 * 4);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(() => encodePng(10, 10, new Uint8Array(12))).toThrow();
  });
});

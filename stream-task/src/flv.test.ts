import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlvFileReader, flvHeader, isEndOfSequence, isSequenceHeader, tagData, writeTimestamp, TAG_AUDIO, TAG_VIDEO } from './flv';

/** One FLV tag: header, data, trailer. */
function tag(type: number, timestamp: number, data: number[]): Buffer {
  const body = Buffer.from(data);
  const bytes = Buffer.alloc(11 + body.length + 4);
  bytes[0] = type;
  bytes.writeUIntBE(body.length, 1, 3);
  bytes.writeUIntBE(timestamp & 0xffffff, 4, 3);
  bytes[7] = Math.floor(timestamp / 0x1000000);
  body.copy(bytes, 11);
  bytes.writeUInt32BE(11 + body.length, 11 + body.length);
  return bytes;
}

const avcHeader = [0x17, 0, 0, 0, 0, 1, 2, 3];
const keyframe = [0x17, 1, 0, 0, 0, 9, 9];
const interframe = [0x27, 1, 0, 0, 0, 8];
const aacHeader = [0xaf, 0, 0x12, 0x10];
const aacFrame = [0xaf, 1, 5, 5, 5];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loopcast-flv-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Every tag of the file as [type, timestamp, data], read through a buffer of `bufferBytes`. */
async function readAll(bytes: Buffer, bufferBytes = 64 * 1024) {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.flv`);
  await writeFile(path, bytes);
  const reader = new FlvFileReader(bufferBytes);
  await reader.open(path);
  const tags: { type: number; timestamp: number; data: number[]; sequenceHeader: boolean; endOfSequence: boolean }[] = [];
  try {
    do {
      while (reader.next()) {
        tags.push({
          type: reader.type,
          timestamp: reader.timestamp,
          data: [...tagData(reader)],
          sequenceHeader: isSequenceHeader(reader),
          endOfSequence: isEndOfSequence(reader),
        });
      }
    } while (await reader.fill());
  } finally {
    await reader.close();
  }
  return { tags, reader, path };
}

describe('FLV tags', () => {
  const file = Buffer.concat([
    flvHeader({ audio: true, video: true }),
    tag(TAG_VIDEO, 0, avcHeader),
    tag(TAG_AUDIO, 0, aacHeader),
    tag(TAG_VIDEO, 0, keyframe),
    tag(TAG_AUDIO, 23, aacFrame),
    tag(TAG_VIDEO, 33, interframe),
  ]);

  test('the file header: signature, version, track flags, its size and the first PreviousTagSize', () => {
    expect([...flvHeader({ audio: true, video: true })]).toEqual([0x46, 0x4c, 0x56, 1, 5, 0, 0, 0, 9, 0, 0, 0, 0]);
    expect(flvHeader({ audio: false, video: true })[4]).toBe(1);
  });

  test('read through a buffer of any size: tags spanning reads kept whole, a tag larger than the buffer grows it', async () => {
    for (const size of [13, 16, 20, 32, 64, file.length]) {
      const { tags } = await readAll(file, size);
      expect(tags.map((t) => [t.type, t.timestamp])).toEqual([
        [9, 0],
        [8, 0],
        [9, 0],
        [8, 23],
        [9, 33],
      ]);
      expect(tags[4]!.data).toEqual(interframe);
      expect(tags[2]!.data).toEqual(keyframe);
    }
  });

  test('rewound, the same file is read again from its first tag', async () => {
    const { path } = await readAll(file);
    const reader = new FlvFileReader(20);
    await reader.open(path);
    const timestamps = [];
    for (let pass = 0; pass < 2; pass += 1) {
      do while (reader.next()) timestamps.push(reader.timestamp);
      while (await reader.fill());
      reader.rewind();
    }
    await reader.close();
    expect(timestamps).toEqual([0, 0, 0, 23, 33, 0, 0, 0, 23, 33]);
  });

  test('sequence headers and end of sequence are told apart from media', async () => {
    const { tags } = await readAll(file);
    expect(tags.map((t) => t.sequenceHeader)).toEqual([true, true, false, false, false]);
    expect(tags.map((t) => t.endOfSequence)).toEqual([false, false, false, false, false]);
    const [eos] = (await readAll(Buffer.concat([flvHeader({ audio: false, video: true }), tag(TAG_VIDEO, 40, [0x17, 2, 0, 0, 0])]))).tags;
    expect(eos).toMatchObject({ endOfSequence: true, sequenceHeader: false });
  });

  test('a timestamp is written into a tag, the upper 8 bits included, modulo 2^32', async () => {
    const bytes = Buffer.concat([flvHeader({ audio: false, video: true }), tag(TAG_VIDEO, 0, keyframe), tag(TAG_VIDEO, 0, interframe)]);
    writeTimestamp(bytes, 13, 0x12345678);
    writeTimestamp(bytes, 13 + 11 + keyframe.length + 4, 2 ** 32 + 5);
    expect((await readAll(bytes)).tags.map((t) => t.timestamp)).toEqual([0x12345678, 5]);
  });

  test('a file cut inside a tag is refused, and so is something else than FLV', async () => {
    await expect(readAll(file.subarray(0, file.length - 3))).rejects.toThrow('ends inside a tag');
    await expect(readAll(Buffer.from('RIFF0000WAVEfmt '))).rejects.toThrow('is not an FLV file');
  });
});

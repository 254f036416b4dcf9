import { FlvTagSplitter, flvHeader, isEndOfSequence, isKeyframe, isSequenceHeader, setTimestamp, tagData, TAG_AUDIO, TAG_VIDEO } from './flv';

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

  test('split from chunks of any size, tags spanning chunks joined', () => {
    for (const size of [1, 7, 13, 64, file.length]) {
      const splitter = new FlvTagSplitter();
      const tags = [];
      for (let at = 0; at < file.length; at += size) tags.push(...splitter.push(Buffer.from(file.subarray(at, at + size))));
      expect(tags.map((t) => [t.type, t.timestamp])).toEqual([
        [9, 0],
        [8, 0],
        [9, 0],
        [8, 23],
        [9, 33],
      ]);
      expect(splitter.leftover).toBe(0);
      expect([...tagData(tags[4]!)]).toEqual(interframe);
    }
  });

  test('sequence headers and keyframes are told apart from media', () => {
    const tags = new FlvTagSplitter().push(file);
    expect(tags.map(isSequenceHeader)).toEqual([true, true, false, false, false]);
    expect(tags.map(isKeyframe)).toEqual([true, false, true, false, false]);
    expect(tags.map(isEndOfSequence)).toEqual([false, false, false, false, false]);
    const [eos] = new FlvTagSplitter().push(Buffer.concat([flvHeader({ audio: false, video: true }), tag(TAG_VIDEO, 40, [0x17, 2, 0, 0, 0])]));
    expect(isEndOfSequence(eos!)).toBe(true);
    expect(isSequenceHeader(eos!)).toBe(false);
  });

  test('a timestamp is rewritten in place, the upper 8 bits included, modulo 2^32', () => {
    const [first] = new FlvTagSplitter().push(Buffer.concat([flvHeader({ audio: false, video: true }), tag(TAG_VIDEO, 0, keyframe)]));
    setTimestamp(first!, 0x12345678);
    expect(first!.timestamp).toBe(0x12345678);
    expect(new FlvTagSplitter().push(Buffer.concat([flvHeader({ audio: false, video: true }), first!.bytes]))[0]!.timestamp).toBe(0x12345678);
    setTimestamp(first!, 2 ** 32 + 5);
    expect(first!.timestamp).toBe(5);
  });

  test('a stream cut inside a tag leaves bytes over; something else than FLV is refused', () => {
    const splitter = new FlvTagSplitter();
    splitter.push(file.subarray(0, file.length - 3));
    expect(splitter.leftover).toBeGreaterThan(0);
    expect(() => new FlvTagSplitter().push(Buffer.from('RIFF0000WAVEfmt '))).toThrow('not an FLV file');
  });
});

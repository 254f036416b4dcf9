// The server side of RTMP's chunk stream as the task reads it: messages put back together from chunks of the size
// the server last declared, and the connect command. Against real servers: runtime.test.ts (declaredChunkSize).
import {
  ChunkStreamReader,
  chunkMessage,
  connectCommand,
  DEFAULT_CHUNK_SIZE,
  declaredChunkSize,
  MESSAGE_TYPE,
  setChunkSizeMessage,
  type RtmpMessage,
} from './rtmp-chunks';

const message = (overrides: Partial<RtmpMessage> = {}): RtmpMessage => ({
  chunkStream: 3,
  timestamp: 0,
  type: MESSAGE_TYPE.amf0Command,
  messageStream: 0,
  payload: Buffer.from(Array.from({ length: 300 }, (_, i) => i % 251)),
  ...overrides,
});
test("a message longer than a chunk comes back whole from its chunks, whatever the reads' sizes", () => {
  const sent = message({ timestamp: 40 });
  const bytes = chunkMessage(sent, DEFAULT_CHUNK_SIZE);
  expect(bytes.length).toBe(12 + 300 + 2); // one header, two continuation bytes (128 + 128 + 44)
  expect(new ChunkStreamReader().push(bytes)).toEqual([sent]);
  const reader = new ChunkStreamReader();
  const received = [...bytes].flatMap((byte) => reader.push(Buffer.from([byte])));
  expect(received).toEqual([sent]);
});

test("the server's Set Chunk Size changes how the chunks after it are read, and is passed on", () => {
  const large = message({ payload: Buffer.alloc(5000, 7) });
  const bytes = Buffer.concat([chunkMessage(setChunkSizeMessage(4096), DEFAULT_CHUNK_SIZE), chunkMessage(large, 4096)]);
  const received = new ChunkStreamReader().push(bytes);
  expect(received.map(declaredChunkSize)).toEqual([4096, undefined]);
  expect(received[1]).toEqual(large);
});

test('compressed headers: format 1 and 2 carry timestamp deltas, format 3 repeats the last one', () => {
  const first = chunkMessage(message({ timestamp: 1000, payload: Buffer.from('a') }), DEFAULT_CHUNK_SIZE);
  // Format 1 (0x43: chunk stream 3): delta 40, length 2, type 20. Format 2 (0x83): delta 25. Format 3 (0xc3).
  const format1 = Buffer.from([0x43, 0, 0, 40, 0, 0, 2, 20, 0x62, 0x62]);
  const format2 = Buffer.from([0x83, 0, 0, 25, 0x63, 0x63]);
  const format3 = Buffer.from([0xc3, 0x64, 0x64]);
  const received = new ChunkStreamReader().push(Buffer.concat([first, format1, format2, format3]));
  expect(received.map((m) => [m.timestamp, m.payload.toString()])).toEqual([
    [1000, 'a'],
    [1040, 'bb'],
    [1065, 'cc'],
    [1090, 'dd'],
  ]);
});

test('extended timestamps and chunk stream ids of two and three bytes', () => {
  const late = message({ timestamp: 0x1000000 + 5 });
  expect(new ChunkStreamReader().push(chunkMessage(late, DEFAULT_CHUNK_SIZE))).toEqual([late]);
  // Basic header 0x00 + one byte: chunk stream 64 + 10; 0x01 + two bytes: 64 + 1 + 2 * 256.
  const header = (basic: number[]) => Buffer.from([...basic, 0, 0, 0, 0, 0, 1, 20, 0, 0, 0, 0, 0x7a]);
  const received = new ChunkStreamReader().push(Buffer.concat([header([0x00, 10]), header([0x01, 1, 2])]));
  expect(received.map((m) => m.chunkStream)).toEqual([74, 64 + 1 + 512]);
});

test('a Set Chunk Size without a valid size is no size, and does not change the reading', () => {
  const empty = message({ chunkStream: 2, type: MESSAGE_TYPE.setChunkSize, payload: Buffer.alloc(0) });
  const zero = setChunkSizeMessage(0);
  expect([declaredChunkSize(empty), declaredChunkSize(zero), declaredChunkSize(message())]).toEqual([undefined, undefined, undefined]);
  const after = message();
  const received = new ChunkStreamReader().push(
    Buffer.concat([chunkMessage(empty, DEFAULT_CHUNK_SIZE), chunkMessage(zero, DEFAULT_CHUNK_SIZE), chunkMessage(after, DEFAULT_CHUNK_SIZE)]),
  );
  expect(received.at(-1)).toEqual(after);
});

test('the connect command names the application and the tcUrl, never the stream key', () => {
  const command = connectCommand(new URL('rtmps://live.example.com:443/app/secret-key'));
  expect(command).toMatchObject({ chunkStream: 3, type: MESSAGE_TYPE.amf0Command, messageStream: 0 });
  const text = command.payload.toString('latin1');
  for (const part of ['connect', 'app', 'tcUrl', 'rtmps://live.example.com:443/app', 'nonprivate']) expect(text).toContain(part);
  expect(text).not.toContain('secret-key');
});

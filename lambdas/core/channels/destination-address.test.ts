import { canonicalHost, isPublicAddress } from './destination-address';

describe('destination addresses', () => {
  test.each([
    '127.0.0.1',
    '127.8.8.8',
    '0.0.0.0',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.170.2',
    '100.64.0.1',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.10',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    'localhost',
    'example.com',
    '',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  test.each(['8.8.8.8', '142.250.74.46', '172.32.0.1', '2607:f8b0:4004:c07::64', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  test.each([
    ['2130706433', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['[::1]', '::1'],
    ['A.RTMP.YouTube.com', 'a.rtmp.youtube.com'],
    ['0xdead.example', '0xdead.example'],
  ])('the host %s is read as %s', (host, canonical) => {
    expect(canonicalHost(host)).toBe(canonical);
  });
});

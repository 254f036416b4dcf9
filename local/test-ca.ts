// A certificate authority of the local stack's own, made fresh at every start with Debian's openssl (Node cannot
// issue certificates): it signs the certificate of the local RTMPS test destination (local/nginx-rtmp.ts), and
// stream tasks started by the local stack trust it (LOOPCAST_DESTINATION_CA_FILE), so RTMPS is verified locally as
// in AWS, where tasks trust the system's store. Nothing of it is committed: keys live in the data folder, this
// user's only, and are replaced at the next start.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Days the certificates are valid: a stack runs for days at most; a new start makes new ones. */
const VALID_DAYS = '30';

export interface TestCertificateAuthority {
  /** The CA's certificate (PEM): what a client trusts. */
  certFile: string;
  /** A server certificate signed by this CA for the given IP addresses and DNS names. */
  issue(name: string, subjectAltNames: { ip?: readonly string[]; dns?: readonly string[] }): Promise<{ certFile: string; keyFile: string }>;
}

async function openssl(args: string[]): Promise<void> {
  try {
    await run('openssl', args, { timeout: 30_000 });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === 'ENOENT') throw new Error('openssl is missing (it makes the local RTMPS test certificates): apt-get install openssl');
    throw new Error(`openssl ${args[0]} failed: ${failure.stderr?.trim() || failure.message}`);
  }
}

/** P-256 keys: quick to make, and every TLS stack here (OpenSSL in nginx and Node, GnuTLS in ffmpeg) takes them. */
const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

export async function createTestCa(dir: string, commonName: string): Promise<TestCertificateAuthority> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const caKey = join(dir, 'ca.key');
  const caCert = join(dir, 'ca.crt');
  await openssl([
    'req',
    '-x509',
    ...newKey,
    '-keyout',
    caKey,
    '-out',
    caCert,
    '-days',
    VALID_DAYS,
    '-subj',
    `/CN=${commonName}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  chmodSync(caKey, 0o600);
  return {
    certFile: caCert,
    async issue(name, { ip = [], dns = [] }) {
      const keyFile = join(dir, `${name}.key`);
      const request = join(dir, `${name}.csr`);
      const certFile = join(dir, `${name}.crt`);
      const extensions = join(dir, `${name}.ext`);
      const altNames = [...ip.map((address) => `IP:${address}`), ...dns.map((host) => `DNS:${host}`)].join(',');
      writeFileSync(
        extensions,
        `basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=${altNames}\n`,
      );
      await openssl(['req', ...newKey, '-keyout', keyFile, '-out', request, '-subj', `/CN=${ip[0] ?? dns[0] ?? name}`]);
      chmodSync(keyFile, 0o600);
      await openssl([
        'x509',
        '-req',
        '-in',
        request,
        '-CA',
        caCert,
        '-CAkey',
        caKey,
        '-set_serial',
        `0x${randomBytes(12).toString('hex')}`,
        '-days',
        VALID_DAYS,
        '-extfile',
        extensions,
        '-out',
        certFile,
      ]);
      return { certFile, keyFile };
    },
  };
}

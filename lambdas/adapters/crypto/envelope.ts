// Envelope encryption: each secret gets its own 256-bit data key (AES-256-GCM); the data key is stored wrapped by a
// key-encryption key (KMS in AWS, a local key file in the local stack). The encryption context is bound as GCM
// additional data, so a ciphertext moved to another item (another user's channel) does not open.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DecryptCommand, GenerateDataKeyCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { SecretBox } from '../../core/secret-box';

interface KeyWrapper {
  scheme: string;
  newDataKey(context: Record<string, string>): Promise<{ plaintext: Buffer; wrapped: Buffer }>;
  unwrap(wrapped: Buffer, context: Record<string, string>): Promise<Buffer>;
}

const aad = (context: Record<string, string>) => Buffer.from(JSON.stringify(Object.entries(context).sort()));

/** `<scheme>.<wrapped key>.<iv>.<tag>.<ciphertext>`, each part base64url. */
class EnvelopeBox implements SecretBox {
  constructor(private readonly wrapper: KeyWrapper) {}

  async seal(plaintext: string, context: Record<string, string>): Promise<string> {
    const key = await this.wrapper.newDataKey(context);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key.plaintext, iv);
    cipher.setAAD(aad(context));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    key.plaintext.fill(0);
    return [this.wrapper.scheme, key.wrapped, iv, cipher.getAuthTag(), sealed]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  async open(sealed: string, context: Record<string, string>): Promise<string> {
    const [scheme, wrapped, iv, tag, data] = sealed.split('.');
    if (scheme !== this.wrapper.scheme || !wrapped || !iv || !tag || data === undefined) throw new Error('not a sealed secret of this box');
    const key = await this.wrapper.unwrap(Buffer.from(wrapped, 'base64url'), context);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(aad(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const plaintext = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    key.fill(0);
    return plaintext;
  }
}

/** AWS: data keys from KMS (GenerateDataKey), unwrapped by KMS Decrypt with the same encryption context. */
export function kmsSecretBox(kms: KMSClient, keyId: string): SecretBox {
  return new EnvelopeBox({
    scheme: 'kms1',
    async newDataKey(context) {
      const result = await kms.send(new GenerateDataKeyCommand({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: context }));
      return { plaintext: Buffer.from(result.Plaintext!), wrapped: Buffer.from(result.CiphertextBlob!) };
    },
    async unwrap(wrapped, context) {
      const result = await kms.send(new DecryptCommand({ CiphertextBlob: wrapped, KeyId: keyId, EncryptionContext: context }));
      return Buffer.from(result.Plaintext!);
    },
  });
}

/** Local stack: data keys wrapped with AES-256-GCM under a key kept in the data folder. */
export function localSecretBox(masterKey: Buffer): SecretBox {
  if (masterKey.length !== 32) throw new Error('the local master key must be 32 bytes');
  const wrap = (key: Buffer, context: Record<string, string>) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
    cipher.setAAD(aad(context));
    return Buffer.concat([iv, cipher.update(key), cipher.final(), cipher.getAuthTag()]);
  };
  return new EnvelopeBox({
    scheme: 'local1',
    async newDataKey(context) {
      const plaintext = randomBytes(32);
      return { plaintext, wrapped: wrap(plaintext, context) };
    },
    async unwrap(wrapped, context) {
      const decipher = createDecipheriv('aes-256-gcm', masterKey, wrapped.subarray(0, 12));
      decipher.setAAD(aad(context));
      decipher.setAuthTag(wrapped.subarray(wrapped.length - 16));
      return Buffer.concat([decipher.update(wrapped.subarray(12, wrapped.length - 16)), decipher.final()]);
    },
  });
}

/** Encrypts small secrets at rest (stream keys, OAuth tokens): KMS envelope encryption in AWS, a local key in the
 * local stack. The ciphertext is self-describing, so either side can read only what it wrote. */
export interface SecretBox {
  seal(plaintext: string, context: Record<string, string>): Promise<string>;
  open(sealed: string, context: Record<string, string>): Promise<string>;
}

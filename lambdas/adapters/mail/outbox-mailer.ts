import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EmailMessage } from '../../core/accounts/emails';
import type { Mailer } from '../../core/accounts/ports';

/** The local stack's e-mail: each message becomes a file in the outbox folder, and its link is printed, so a
 * local user can confirm an address or reset a password without a mail server. The links are live (they sign
 * in), so the folder and its files are readable by this user only. */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly folder: string,
    private readonly print: (line: string) => void = console.log,
  ) {}

  async send(message: EmailMessage): Promise<void> {
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${message.to.replace(/[^a-z0-9@.-]/gi, '_')}.json`;
    await writeFile(join(this.folder, name), JSON.stringify(message, null, 2), { mode: 0o600 });
    this.print(`[mail] to ${message.to}: "${message.subject}" ${message.link}`);
  }
}

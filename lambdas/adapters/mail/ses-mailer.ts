import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { EmailMessage } from '../../core/accounts/emails';
import type { Mailer } from '../../core/accounts/ports';

/** E-mail through SES v2 from the stage's verified identity (CDK grants ses:SendEmail on it only). */
export class SesMailer implements Mailer {
  constructor(
    private readonly client: SESv2Client,
    private readonly from: string,
  ) {}

  async send(message: EmailMessage): Promise<void> {
    await this.client.send(
      new SendEmailCommand({
        FromEmailAddress: this.from,
        Destination: { ToAddresses: [message.to] },
        Content: { Simple: { Subject: { Data: message.subject, Charset: 'UTF-8' }, Body: { Text: { Data: message.text, Charset: 'UTF-8' } } } },
      }),
    );
  }
}

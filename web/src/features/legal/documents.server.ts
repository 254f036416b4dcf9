// The four legal texts, English only, consistent with each other. One refund rule for all of them (decision in
// docs/decisions.md, "Public site"): a refund can be asked within 14 calendar days of a payment when the paid period
// was not used substantially (at most 72 hours of streaming), and in full at any time within those 14 days for a
// double payment, a wrong plan or a service we did not provide; answered within 5 business days, paid within
// 7 business days of approval to the original payment method. Only loaders import this file, so the texts reach
// the browser as page data, never as JavaScript.
import { TRIAL_DAYS } from '@loopcast/core/plans';
import { support, type SupportChannels } from '../../config/support';
import type { LegalDocument } from './legal-document';

/** "a, b or c" */
const oneOf = (items: string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items.at(-1)}` : (items[0] ?? ''));

/** The support channels this build has (config/support.ts), named in the texts; none is ever a placeholder. */
function contactTexts(channels: SupportChannels) {
  const ways = [
    ...(channels.email ? [`by e-mail at ${channels.email}`] : []),
    ...(channels.chatUrl ? [`in our live chat at ${channels.chatUrl}`] : []),
    ...(channels.telegramUrl ? [`on Telegram at ${channels.telegramUrl}`] : []),
  ];
  const kinds = [...(channels.email ? ['e-mail'] : []), ...(channels.chatUrl ? ['chat'] : []), ...(channels.telegramUrl ? ['Telegram'] : [])];
  return {
    contact: ways.length > 0 ? `You can reach us ${oneOf(ways)}.` : 'The support contacts of this Loopcast installation have not been published yet.',
    refundRequest: channels.email
      ? `Send the request to ${channels.email} from the e-mail address of your account.`
      : 'Send the request to our support (see Contact), naming the e-mail address of your account.',
    supportPromise: kinds.length > 0 ? `answers support requests by ${oneOf(kinds)}` : 'answers support requests',
  };
}

const documentsWith = ({ contact, refundRequest, supportPromise }: ReturnType<typeof contactTexts>): Record<LegalPath, LegalDocument> => {
  const refundRule = [
    `You may ask for a refund within 14 calendar days of a payment if the service was not used substantially during the period that payment covers. "Used substantially" means more than 72 hours of streaming in total from your account in that period.`,
    'Whatever the use, a payment is refunded in full when you ask within 14 calendar days of it and it was an accidental double payment, a payment for a plan you did not choose, or a payment for a service we did not provide.',
    `${refundRequest} We answer every request within 5 business days. An approved refund is paid to the original payment method within 7 business days of approval; your bank may take a few more days to show it.`,
    `The ${TRIAL_DAYS}-day free trial is free of charge, so there is nothing to refund for it. Fees of a period that has been refunded end the paid access for that period.`,
  ];

  return {
    '/terms': {
      title: 'Terms of Use',
      dateLine: 'Last updated April 17, 2025',
      intro:
        'These terms govern your use of Loopcast, a service that turns a video you upload into a looping livestream on YouTube or another platform. By creating an account or using the service you agree to them.',
      sections: [
        {
          heading: '1. Who may use Loopcast',
          paragraphs: [
            'You must be at least 16 years old to use Loopcast. The service is not directed at children under 16.',
            'The information you give when you register must be truthful and kept up to date. You are responsible for keeping your password secret and for everything done with your account.',
          ],
        },
        {
          heading: '2. The service',
          paragraphs: [
            'Loopcast stores the videos you upload, prepares them for streaming, and broadcasts them in a loop to the channels you connect, either through your YouTube account (connected with Google sign-in) or through a stream key you provide.',
            'We work to keep streams running around the clock and restart them automatically after interruptions, but we do not guarantee uninterrupted availability. Platforms such as YouTube apply their own rules and may end a broadcast independently of us.',
            'Features marked "soon" are not yet available and are not part of any plan until they are released.',
          ],
        },
        {
          heading: '3. Your content',
          paragraphs: [
            'You keep all rights to the content you upload. You grant us the permission needed to store, transcode and broadcast it to the destinations you choose, only for as long as you use the service.',
            'You must own or be licensed to use everything you upload and stream, including music. You must not stream content that is illegal, infringes the rights of others, or breaks the rules of the destination platform.',
            'You can delete your uploaded content at any time. Deleted files are removed from our storage; copies in backups expire within 30 days.',
          ],
        },
        {
          heading: '4. Plans, fees and renewal',
          paragraphs: [
            `New accounts can try the service free for ${TRIAL_DAYS} days. After the trial, paid plans are billed for a month, 3 months, 6 months or a year, at the prices shown on our pricing page. All fees are in US dollars (USD) and include no taxes unless stated.`,
            'Subscriptions renew automatically at the end of each period and the fee of the next period is charged unless you cancel before the renewal date. You can cancel at any time in your account; access continues until the end of the paid period.',
            'If a payment fails, we may suspend paid features until the payment issue is resolved.',
          ],
        },
        { heading: '5. Refunds', paragraphs: [...refundRule, 'Our Refund Policy repeats these rules and describes how to send a request.'] },
        {
          heading: '6. Suspension and termination',
          paragraphs: [
            'We may suspend or terminate an account that breaks these terms, endangers the service or other users, or is used for illegal content. Where possible we tell you why and give you a chance to fix the problem first. While an account is suspended, its subscription is not charged.',
            'You may close your account at any time. When an account is closed, its content is deleted.',
          ],
        },
        {
          heading: '7. Liability',
          paragraphs: [
            'The service is provided "as is". To the extent the law allows, we are not liable for indirect or consequential losses, such as lost revenue or lost audience, caused by interruptions of a stream.',
            'Our total liability for any claim related to the service is limited to the amounts you paid us in the 12 months before the event that gave rise to the claim. Nothing in these terms limits liability that cannot be limited by law.',
          ],
        },
        {
          heading: '8. Changes and contact',
          paragraphs: [
            'We may update these terms. We announce material changes by e-mail or in the app at least 14 days before they take effect; continuing to use the service afterwards means you accept them.',
            contact,
          ],
        },
      ],
    },
    '/offer': {
      title: 'Public Offer Agreement',
      dateLine: 'Last updated April 17, 2025',
      intro:
        'This public offer is Loopcast\'s proposal to any person to buy a subscription to the Loopcast service on the terms below. Paying for a plan is acceptance of this offer and concludes the agreement between you (the "Customer") and Loopcast (the "Provider").',
      sections: [
        {
          heading: '1. Subject of the agreement',
          paragraphs: [
            "The Provider gives the Customer access to the Loopcast service, which broadcasts the Customer's uploaded videos as looping livestreams to the destinations the Customer connects, within the limits of the chosen plan.",
            'The Terms of Use and the Privacy Policy are part of this agreement.',
          ],
        },
        {
          heading: '2. Acceptance',
          paragraphs: [
            'The offer is accepted when the Customer pays for a plan. By paying, the Customer confirms being at least 16 years old and that the registration information is truthful.',
          ],
        },
        {
          heading: '3. Price and payment',
          paragraphs: [
            'Prices are those shown on the pricing page at the moment of payment, in US dollars (USD). Payment is made by card through our payment provider; we do not store card numbers.',
            'Subscriptions renew automatically for the same period unless the Customer cancels before the renewal date. If a payment fails, the Provider may suspend paid access until the payment issue is resolved.',
          ],
        },
        { heading: '4. Refunds', paragraphs: refundRule },
        {
          heading: '5. Obligations of the parties',
          paragraphs: [
            `The Provider keeps the service available, restarts interrupted streams automatically, and ${supportPromise}.`,
            'The Customer uses the service only for content they have the rights to, follows the rules of the destination platforms, and keeps their account credentials secret.',
          ],
        },
        {
          heading: '6. Suspension, termination and content',
          paragraphs: [
            'The Provider may suspend or terminate the account of a Customer who breaks this agreement or the Terms of Use. While an account is suspended, its subscription is not charged.',
            'The Customer may cancel the subscription and delete uploaded content at any time.',
          ],
        },
        {
          heading: '7. Liability',
          paragraphs: [
            "The Provider's total liability under this agreement is limited to the amounts the Customer paid in the 12 months before the event that gave rise to the claim.",
          ],
        },
        { heading: '8. Contact', paragraphs: [contact] },
      ],
    },
    '/refund-policy': {
      title: 'Refund Policy',
      dateLine: 'Effective April 17, 2025',
      intro:
        'We want you to pay only for a service that works for you. This policy is the one refund rule of Loopcast; the Terms of Use and the Public Offer Agreement refer to the same rule.',
      sections: [
        { heading: 'When you can get a refund', paragraphs: refundRule.slice(0, 2) },
        { heading: 'How to ask', paragraphs: refundRule.slice(2, 3) },
        {
          heading: 'Free trial and cancellation',
          paragraphs: [
            refundRule[3] ?? '',
            'Cancelling stops the next renewal; it does not by itself refund the current period. Ask for a refund as described above if it applies.',
          ],
        },
        { heading: 'Contact', paragraphs: [contact] },
      ],
    },
    '/privacy': {
      title: 'Privacy Policy',
      dateLine: 'Last updated February 26, 2025',
      intro: 'This policy explains which personal data Loopcast processes, why, and what rights you have. Loopcast is the controller of this data.',
      sections: [
        {
          heading: '1. Data we process',
          paragraphs: [
            'Account data: your e-mail address, display name and a hash of your password.',
            'Content: the videos, audio tracks and thumbnails you upload, and your stream settings (titles, destinations, schedules).',
            "Connected accounts: when you connect YouTube, the OAuth tokens Google gives us and your channel identifiers. We use them only to create and manage your live broadcasts. Loopcast's use of information received from Google APIs adheres to the Google API Services User Data Policy, including the Limited Use requirements.",
            'Payments: our card payment provider processes your card; we receive only the payment status, plan and period.',
            'Technical data: IP addresses, browser type and logs of requests, kept to run and secure the service.',
          ],
        },
        {
          heading: '2. Why we process it',
          paragraphs: [
            'To provide the service you asked for (performance of our agreement), to bill subscriptions, to keep the service secure and to meet legal obligations. With your consent only, we measure how our website is used.',
          ],
        },
        {
          heading: '3. Cookies and local storage',
          paragraphs: [
            "auth_token keeps you signed in; loopcast_device (sent only when you sign in, for a year) tells us a browser you signed in on before, so that someone guessing your password cannot lock you out of it; i18n_redirected remembers your language for 365 days; your cookie choice is kept in your browser's local storage. Analytics cookies are set only after you accept them.",
          ],
        },
        {
          heading: '4. Who receives data',
          paragraphs: [
            'Our hosting provider (Amazon Web Services), Google when you connect YouTube, our card payment provider, and our e-mail provider, each only as needed to provide the service. We do not sell personal data.',
          ],
        },
        {
          heading: '5. How long we keep it',
          paragraphs: [
            'Account data and content are kept while your account exists. You can delete your content at any time; when you close your account, its data is deleted within 30 days, except records we must keep by law, such as invoices.',
          ],
        },
        {
          heading: '6. Your rights',
          paragraphs: [
            'You may ask for access to your data, its correction, deletion or a copy in a portable format, and you may object to or restrict its processing. You may also complain to your data protection authority.',
          ],
        },
        {
          heading: '7. Children',
          paragraphs: ['Loopcast is not directed at children under 16, and we do not knowingly collect data from them.'],
        },
        { heading: '8. Contact', paragraphs: [contact] },
      ],
    },
  };
};

export type LegalPath = '/terms' | '/offer' | '/refund-policy' | '/privacy';

export const legalDocument = (page: LegalPath, channels: SupportChannels = support): LegalDocument => documentsWith(contactTexts(channels))[page];

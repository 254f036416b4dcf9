// The billing notice Loopcast e-mails when a renewal payment fails, in the user's language.
import { urlPrefix, type LanguageCode } from '../languages';
import type { EmailMessage } from '../accounts/emails';

const wording: Record<LanguageCode, (name: string, link: string, hours: number) => { subject: string; text: string }> = {
  en: (name, link, hours) => ({
    subject: 'Your Loopcast payment failed',
    text: `Hi ${name},\n\nwe could not charge your renewal. New streams and uploads are paused, and streams that are running now will stop in ${hours} hours unless the payment goes through. Update your payment method here:\n${link}\n\nNothing you stored is deleted.\n\nLoopcast`,
  }),
  es: (name, link, hours) => ({
    subject: 'Tu pago de Loopcast ha fallado',
    text: `Hola, ${name}:\n\nno hemos podido cobrar tu renovación. Las nuevas emisiones y subidas están en pausa, y las emisiones en curso se detendrán en ${hours} horas si el pago no se completa. Actualiza tu método de pago aquí:\n${link}\n\nNo se borra nada de lo que guardaste.\n\nLoopcast`,
  }),
  hi: (name, link, hours) => ({
    subject: 'आपका Loopcast भुगतान विफल हो गया',
    text: `नमस्ते ${name},\n\nहम आपका नवीनीकरण शुल्क नहीं ले सके। नई स्ट्रीम और अपलोड रोक दिए गए हैं, और अभी चल रही स्ट्रीम ${hours} घंटे में बंद हो जाएँगी, जब तक भुगतान पूरा न हो। यहाँ अपना भुगतान तरीका अपडेट करें:\n${link}\n\nआपकी सहेजी गई कोई भी चीज़ हटाई नहीं जाती।\n\nLoopcast`,
  }),
  ru: (name, link, hours) => ({
    subject: 'Платёж Loopcast не прошёл',
    text: `Здравствуйте, ${name}!\n\nНам не удалось списать оплату за продление. Новые трансляции и загрузки приостановлены, а текущие трансляции остановятся через ${hours} ч, если оплата не пройдёт. Обновите способ оплаты здесь:\n${link}\n\nНичего из сохранённого не удаляется.\n\nLoopcast`,
  }),
  ua: (name, link, hours) => ({
    subject: 'Платіж Loopcast не пройшов',
    text: `Вітаємо, ${name}!\n\nНам не вдалося списати оплату за продовження. Нові трансляції та завантаження призупинено, а поточні трансляції зупиняться через ${hours} год, якщо оплата не пройде. Оновіть спосіб оплати тут:\n${link}\n\nНічого зі збереженого не видаляється.\n\nLoopcast`,
  }),
};

export function paymentFailedEmail(to: { email: string; displayName: string; language: LanguageCode }, publicUrl: string, graceHours: number): EmailMessage {
  const link = `${publicUrl}${urlPrefix(to.language)}/app/billing`;
  return { to: to.email, link, ...wording[to.language](to.displayName, link, graceHours) };
}

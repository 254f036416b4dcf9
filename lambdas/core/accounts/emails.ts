// The e-mails Loopcast sends about accounts, in the user's language.
import { urlPrefix, type LanguageCode } from '../languages';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  /** The one link the reader needs; the local outbox prints it on the console. */
  link: string;
}

type Template = (name: string, link: string, hours: number) => { subject: string; text: string };

const confirmation: Record<LanguageCode, Template> = {
  en: (name, link, hours) => ({
    subject: 'Confirm your e-mail for Loopcast',
    text: `Hi ${name},\n\nplease confirm your e-mail address to start streaming with Loopcast:\n${link}\n\nThe link works for ${hours} hours. If you did not sign up, ignore this e-mail.\n\nLoopcast`,
  }),
  es: (name, link, hours) => ({
    subject: 'Confirma tu correo para Loopcast',
    text: `Hola, ${name}:\n\nconfirma tu dirección de correo para empezar a emitir con Loopcast:\n${link}\n\nEl enlace funciona durante ${hours} horas. Si no te registraste, ignora este correo.\n\nLoopcast`,
  }),
  hi: (name, link, hours) => ({
    subject: 'Loopcast के लिए अपना ईमेल पुष्टि करें',
    text: `नमस्ते ${name},\n\nLoopcast के साथ स्ट्रीमिंग शुरू करने के लिए कृपया अपना ईमेल पता पुष्टि करें:\n${link}\n\nयह लिंक ${hours} घंटे तक काम करता है। अगर आपने साइन अप नहीं किया है, तो इस ईमेल को अनदेखा करें।\n\nLoopcast`,
  }),
  ru: (name, link, hours) => ({
    subject: 'Подтвердите e-mail для Loopcast',
    text: `Здравствуйте, ${name}!\n\nПодтвердите адрес электронной почты, чтобы начать трансляции с Loopcast:\n${link}\n\nСсылка действует ${hours} ч. Если вы не регистрировались, просто проигнорируйте это письмо.\n\nLoopcast`,
  }),
  ua: (name, link, hours) => ({
    subject: 'Підтвердіть e-mail для Loopcast',
    text: `Вітаємо, ${name}!\n\nПідтвердіть адресу електронної пошти, щоб почати трансляції з Loopcast:\n${link}\n\nПосилання діє ${hours} год. Якщо ви не реєструвалися, просто проігноруйте цей лист.\n\nLoopcast`,
  }),
};

const passwordReset: Record<LanguageCode, Template> = {
  en: (name, link, hours) => ({
    subject: 'Reset your Loopcast password',
    text: `Hi ${name},\n\nsomeone (hopefully you) asked to reset your Loopcast password. Choose a new one here:\n${link}\n\nThe link works for ${hours} hour(s) and only once. If you did not ask, ignore this e-mail: your password stays as it is.\n\nLoopcast`,
  }),
  es: (name, link, hours) => ({
    subject: 'Restablece tu contraseña de Loopcast',
    text: `Hola, ${name}:\n\nalguien (esperamos que tú) pidió restablecer tu contraseña de Loopcast. Elige una nueva aquí:\n${link}\n\nEl enlace funciona durante ${hours} hora(s) y una sola vez. Si no lo pediste, ignora este correo: tu contraseña no cambia.\n\nLoopcast`,
  }),
  hi: (name, link, hours) => ({
    subject: 'अपना Loopcast पासवर्ड रीसेट करें',
    text: `नमस्ते ${name},\n\nकिसी ने (उम्मीद है आपने) आपका Loopcast पासवर्ड रीसेट करने का अनुरोध किया है। यहाँ नया पासवर्ड चुनें:\n${link}\n\nयह लिंक ${hours} घंटे तक और केवल एक बार काम करता है। अगर आपने अनुरोध नहीं किया, तो इस ईमेल को अनदेखा करें: आपका पासवर्ड नहीं बदलेगा।\n\nLoopcast`,
  }),
  ru: (name, link, hours) => ({
    subject: 'Сброс пароля Loopcast',
    text: `Здравствуйте, ${name}!\n\nКто-то (надеемся, вы) запросил сброс пароля Loopcast. Задайте новый пароль здесь:\n${link}\n\nСсылка действует ${hours} ч и только один раз. Если вы ничего не запрашивали, проигнорируйте письмо: пароль останется прежним.\n\nLoopcast`,
  }),
  ua: (name, link, hours) => ({
    subject: 'Скидання пароля Loopcast',
    text: `Вітаємо, ${name}!\n\nХтось (сподіваємося, ви) попросив скинути пароль Loopcast. Задайте новий пароль тут:\n${link}\n\nПосилання діє ${hours} год і лише один раз. Якщо ви нічого не просили, проігноруйте лист: пароль залишиться тим самим.\n\nLoopcast`,
  }),
};

type NoticeTemplate = (name: string, link: string) => { subject: string; text: string };

// Someone (perhaps the owner, who forgot) signed up with an address that has an account. Registration answers the
// same for every address (docs/accounts.md), so the owner learns it here, where only they read it.
const accountExists: Record<LanguageCode, NoticeTemplate> = {
  en: (name, link) => ({
    subject: 'You already have a Loopcast account',
    text: `Hi ${name},\n\nsomeone (hopefully you) tried to sign up for Loopcast with this e-mail address, which already has an account. Sign in here, or use "Forgot your password?" on that page:\n${link}\n\nIf it was not you, ignore this e-mail: nothing has changed.\n\nLoopcast`,
  }),
  es: (name, link) => ({
    subject: 'Ya tienes una cuenta de Loopcast',
    text: `Hola, ${name}:\n\nalguien (esperamos que tú) intentó registrarse en Loopcast con esta dirección de correo, que ya tiene una cuenta. Inicia sesión aquí o usa «¿Olvidaste tu contraseña?» en esa página:\n${link}\n\nSi no fuiste tú, ignora este correo: no ha cambiado nada.\n\nLoopcast`,
  }),
  hi: (name, link) => ({
    subject: 'आपका Loopcast खाता पहले से है',
    text: `नमस्ते ${name},\n\nकिसी ने (उम्मीद है आपने) इस ईमेल पते से Loopcast पर साइन अप करने की कोशिश की, जिसका खाता पहले से मौजूद है। यहाँ साइन इन करें, या उस पेज पर "पासवर्ड भूल गए?" का उपयोग करें:\n${link}\n\nअगर यह आप नहीं थे, तो इस ईमेल को अनदेखा करें: कुछ नहीं बदला है।\n\nLoopcast`,
  }),
  ru: (name, link) => ({
    subject: 'У вас уже есть аккаунт Loopcast',
    text: `Здравствуйте, ${name}!\n\nКто-то (надеемся, вы) попытался зарегистрироваться в Loopcast с этим адресом, а для него уже есть аккаунт. Войдите здесь или нажмите «Забыли пароль?» на этой странице:\n${link}\n\nЕсли это были не вы, проигнорируйте письмо: ничего не изменилось.\n\nLoopcast`,
  }),
  ua: (name, link) => ({
    subject: 'У вас уже є акаунт Loopcast',
    text: `Вітаємо, ${name}!\n\nХтось (сподіваємося, ви) спробував зареєструватися в Loopcast із цією адресою, а для неї вже є акаунт. Увійдіть тут або натисніть «Забули пароль?» на цій сторінці:\n${link}\n\nЯкщо це були не ви, проігноруйте лист: нічого не змінилося.\n\nLoopcast`,
  }),
};

/** To the owner of an address someone tried to register again: a link to sign in (and from there to reset). */
export function accountExistsEmail(to: { email: string; displayName: string; language: LanguageCode }, publicUrl: string): EmailMessage {
  const link = `${publicUrl}${urlPrefix(to.language)}/app/auth/login`;
  return { to: to.email, link, ...accountExists[to.language](to.displayName, link) };
}

function compose(templates: Record<LanguageCode, Template>, page: string) {
  return (to: { email: string; displayName: string; language: LanguageCode }, publicUrl: string, token: string, ttlSeconds: number): EmailMessage => {
    const link = `${publicUrl}${urlPrefix(to.language)}/app/auth/${page}?token=${encodeURIComponent(token)}`;
    return { to: to.email, link, ...templates[to.language](to.displayName, link, Math.round(ttlSeconds / 3600)) };
  };
}

export const confirmationEmail = compose(confirmation, 'confirm');
export const passwordResetEmail = compose(passwordReset, 'reset-password');

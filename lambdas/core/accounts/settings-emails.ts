// The e-mails of the account page (settings.ts, closure.ts), in the user's language: a new address confirmed by a
// link sent to it, the old address told of the change, a changed password, closing the account and its goodbye.
import { urlPrefix, type LanguageCode } from '../languages';
import type { EmailMessage } from './emails';

type Wording = { subject: string; text: string };
type Recipient = { email: string; displayName: string; language: LanguageCode };

const emailChange: Record<LanguageCode, (name: string, link: string, hours: number) => Wording> = {
  en: (name, link, hours) => ({
    subject: 'Confirm your new e-mail for Loopcast',
    text: `Hi ${name},\n\nyou asked to use this address for your Loopcast account. Confirm it here:\n${link}\n\nThe link works for ${hours} hours and only once. Until then your account keeps its current address. If you did not ask, ignore this e-mail.\n\nLoopcast`,
  }),
  es: (name, link, hours) => ({
    subject: 'Confirma tu nuevo correo para Loopcast',
    text: `Hola, ${name}:\n\npediste usar esta dirección para tu cuenta de Loopcast. Confírmala aquí:\n${link}\n\nEl enlace funciona durante ${hours} horas y una sola vez. Hasta entonces tu cuenta conserva su dirección actual. Si no lo pediste, ignora este correo.\n\nLoopcast`,
  }),
  hi: (name, link, hours) => ({
    subject: 'Loopcast के लिए अपने नए ईमेल की पुष्टि करें',
    text: `नमस्ते ${name},\n\nआपने अपने Loopcast खाते के लिए इस पते का उपयोग करने का अनुरोध किया है। यहाँ पुष्टि करें:\n${link}\n\nयह लिंक ${hours} घंटे तक और केवल एक बार काम करता है। तब तक आपका खाता अपना मौजूदा पता रखता है। अगर आपने अनुरोध नहीं किया, तो इस ईमेल को अनदेखा करें।\n\nLoopcast`,
  }),
  ru: (name, link, hours) => ({
    subject: 'Подтвердите новый e-mail для Loopcast',
    text: `Здравствуйте, ${name}!\n\nВы попросили использовать этот адрес для аккаунта Loopcast. Подтвердите его здесь:\n${link}\n\nСсылка действует ${hours} ч и только один раз. До этого у аккаунта остаётся прежний адрес. Если вы ничего не запрашивали, проигнорируйте письмо.\n\nLoopcast`,
  }),
  ua: (name, link, hours) => ({
    subject: 'Підтвердіть новий e-mail для Loopcast',
    text: `Вітаємо, ${name}!\n\nВи попросили використовувати цю адресу для акаунта Loopcast. Підтвердіть її тут:\n${link}\n\nПосилання діє ${hours} год і лише один раз. Доти акаунт зберігає поточну адресу. Якщо ви нічого не просили, проігноруйте лист.\n\nLoopcast`,
  }),
};

const emailInUse: Record<LanguageCode, (link: string) => Wording> = {
  en: (link) => ({
    subject: 'This address already has a Loopcast account',
    text: `Hello,\n\nsomeone asked to move another Loopcast account to this address, which already has an account of its own. Nothing has changed. If it was you, sign in to the account that uses this address:\n${link}\n\nLoopcast`,
  }),
  es: (link) => ({
    subject: 'Esta dirección ya tiene una cuenta de Loopcast',
    text: `Hola:\n\nalguien pidió pasar otra cuenta de Loopcast a esta dirección, que ya tiene una cuenta propia. No ha cambiado nada. Si fuiste tú, inicia sesión en la cuenta que usa esta dirección:\n${link}\n\nLoopcast`,
  }),
  hi: (link) => ({
    subject: 'इस पते का Loopcast खाता पहले से है',
    text: `नमस्ते,\n\nकिसी ने दूसरे Loopcast खाते को इस पते पर ले जाने का अनुरोध किया, जिसका अपना खाता पहले से है। कुछ नहीं बदला है। अगर यह आप थे, तो इस पते वाले खाते में साइन इन करें:\n${link}\n\nLoopcast`,
  }),
  ru: (link) => ({
    subject: 'Для этого адреса уже есть аккаунт Loopcast',
    text: `Здравствуйте!\n\nКто-то попросил перенести другой аккаунт Loopcast на этот адрес, но для него уже есть свой аккаунт. Ничего не изменилось. Если это были вы, войдите в аккаунт с этим адресом:\n${link}\n\nLoopcast`,
  }),
  ua: (link) => ({
    subject: 'Для цієї адреси вже є акаунт Loopcast',
    text: `Вітаємо!\n\nХтось попросив перенести інший акаунт Loopcast на цю адресу, але для неї вже є свій акаунт. Нічого не змінилося. Якщо це були ви, увійдіть в акаунт із цією адресою:\n${link}\n\nLoopcast`,
  }),
};

const emailChanged: Record<LanguageCode, (name: string, newAddress: string, link: string) => Wording> = {
  en: (name, newAddress, link) => ({
    subject: 'Your Loopcast e-mail was changed',
    text: `Hi ${name},\n\nyour Loopcast account now uses the address ${newAddress}; this address no longer signs in to it. If you did not make this change, contact Loopcast support at once (${link}) and tell us this e-mail's date.\n\nLoopcast`,
  }),
  es: (name, newAddress, link) => ({
    subject: 'Se cambió tu correo de Loopcast',
    text: `Hola, ${name}:\n\ntu cuenta de Loopcast usa ahora la dirección ${newAddress}; esta dirección ya no sirve para iniciar sesión. Si no hiciste este cambio, contacta de inmediato con el soporte de Loopcast (${link}) e indícanos la fecha de este correo.\n\nLoopcast`,
  }),
  hi: (name, newAddress, link) => ({
    subject: 'आपका Loopcast ईमेल बदल दिया गया',
    text: `नमस्ते ${name},\n\nआपका Loopcast खाता अब ${newAddress} पते का उपयोग करता है; इस पते से अब उसमें साइन इन नहीं होता। अगर यह बदलाव आपने नहीं किया, तो तुरंत Loopcast सहायता से संपर्क करें (${link}) और इस ईमेल की तारीख बताएँ।\n\nLoopcast`,
  }),
  ru: (name, newAddress, link) => ({
    subject: 'E-mail вашего аккаунта Loopcast изменён',
    text: `Здравствуйте, ${name}!\n\nТеперь ваш аккаунт Loopcast использует адрес ${newAddress}; с этим адресом в него больше не войти. Если это сделали не вы, сразу напишите в поддержку Loopcast (${link}) и укажите дату этого письма.\n\nLoopcast`,
  }),
  ua: (name, newAddress, link) => ({
    subject: 'E-mail вашого акаунта Loopcast змінено',
    text: `Вітаємо, ${name}!\n\nТепер ваш акаунт Loopcast використовує адресу ${newAddress}; з цією адресою в нього більше не ввійти. Якщо це зробили не ви, одразу напишіть у підтримку Loopcast (${link}) і вкажіть дату цього листа.\n\nLoopcast`,
  }),
};

const passwordChanged: Record<LanguageCode, (name: string, link: string) => Wording> = {
  en: (name, link) => ({
    subject: 'Your Loopcast password was changed',
    text: `Hi ${name},\n\nthe password of your Loopcast account was just changed, and every other device was signed out. If this was not you, choose a new password here at once:\n${link}\n\nLoopcast`,
  }),
  es: (name, link) => ({
    subject: 'Se cambió tu contraseña de Loopcast',
    text: `Hola, ${name}:\n\nse acaba de cambiar la contraseña de tu cuenta de Loopcast y se cerró la sesión en todos los demás dispositivos. Si no fuiste tú, elige una nueva contraseña aquí de inmediato:\n${link}\n\nLoopcast`,
  }),
  hi: (name, link) => ({
    subject: 'आपका Loopcast पासवर्ड बदल दिया गया',
    text: `नमस्ते ${name},\n\nआपके Loopcast खाते का पासवर्ड अभी बदला गया है, और बाकी सभी डिवाइस से साइन आउट कर दिया गया है। अगर यह आप नहीं थे, तो तुरंत यहाँ नया पासवर्ड चुनें:\n${link}\n\nLoopcast`,
  }),
  ru: (name, link) => ({
    subject: 'Пароль Loopcast изменён',
    text: `Здравствуйте, ${name}!\n\nПароль вашего аккаунта Loopcast только что изменён, на всех остальных устройствах выполнен выход. Если это были не вы, сразу задайте новый пароль здесь:\n${link}\n\nLoopcast`,
  }),
  ua: (name, link) => ({
    subject: 'Пароль Loopcast змінено',
    text: `Вітаємо, ${name}!\n\nПароль вашого акаунта Loopcast щойно змінено, на всіх інших пристроях виконано вихід. Якщо це були не ви, одразу задайте новий пароль тут:\n${link}\n\nLoopcast`,
  }),
};

const closeAccount: Record<LanguageCode, (name: string, link: string, hours: number) => Wording> = {
  en: (name, link, hours) => ({
    subject: 'Confirm closing your Loopcast account',
    text: `Hi ${name},\n\nyou asked to close your Loopcast account. When you confirm, your streams stop, your videos, soundtracks, destinations and stored stream keys are deleted, and your subscription is canceled. This cannot be undone. Confirm here:\n${link}\n\nThe link works for ${hours} hours. If you did not ask, ignore this e-mail and change your password: someone signed in to your account.\n\nLoopcast`,
  }),
  es: (name, link, hours) => ({
    subject: 'Confirma el cierre de tu cuenta de Loopcast',
    text: `Hola, ${name}:\n\npediste cerrar tu cuenta de Loopcast. Al confirmarlo, tus emisiones se detienen, se borran tus vídeos, pistas de audio, destinos y claves de emisión guardadas, y se cancela tu suscripción. No se puede deshacer. Confírmalo aquí:\n${link}\n\nEl enlace funciona durante ${hours} horas. Si no lo pediste, ignora este correo y cambia tu contraseña: alguien inició sesión en tu cuenta.\n\nLoopcast`,
  }),
  hi: (name, link, hours) => ({
    subject: 'अपना Loopcast खाता बंद करने की पुष्टि करें',
    text: `नमस्ते ${name},\n\nआपने अपना Loopcast खाता बंद करने का अनुरोध किया है। पुष्टि करते ही आपकी स्ट्रीम रुक जाएँगी, आपके वीडियो, साउंडट्रैक, गंतव्य और सहेजी गई स्ट्रीम कुंजियाँ हटा दी जाएँगी, और आपकी सदस्यता रद्द हो जाएगी। इसे वापस नहीं किया जा सकता। यहाँ पुष्टि करें:\n${link}\n\nयह लिंक ${hours} घंटे तक काम करता है। अगर आपने अनुरोध नहीं किया, तो इस ईमेल को अनदेखा करें और अपना पासवर्ड बदलें: किसी ने आपके खाते में साइन इन किया था।\n\nLoopcast`,
  }),
  ru: (name, link, hours) => ({
    subject: 'Подтвердите закрытие аккаунта Loopcast',
    text: `Здравствуйте, ${name}!\n\nВы попросили закрыть аккаунт Loopcast. После подтверждения трансляции остановятся, ваши видео, звуковые дорожки, направления и сохранённые ключи трансляций будут удалены, а подписка отменена. Это нельзя отменить. Подтвердите здесь:\n${link}\n\nСсылка действует ${hours} ч. Если вы ничего не запрашивали, проигнорируйте письмо и смените пароль: кто-то вошёл в ваш аккаунт.\n\nLoopcast`,
  }),
  ua: (name, link, hours) => ({
    subject: 'Підтвердіть закриття акаунта Loopcast',
    text: `Вітаємо, ${name}!\n\nВи попросили закрити акаунт Loopcast. Після підтвердження трансляції зупиняться, ваші відео, звукові доріжки, напрямки та збережені ключі трансляцій буде видалено, а підписку скасовано. Цю дію не можна скасувати. Підтвердіть тут:\n${link}\n\nПосилання діє ${hours} год. Якщо ви нічого не просили, проігноруйте лист і змініть пароль: хтось увійшов у ваш акаунт.\n\nLoopcast`,
  }),
};

const accountClosed: Record<LanguageCode, (name: string, link: string) => Wording> = {
  en: (name, link) => ({
    subject: 'Your Loopcast account is closed',
    text: `Hi ${name},\n\nyour Loopcast account is closed: its streams stopped, and its videos, soundtracks, destinations and stream keys are deleted. We keep only the records of your payments that the law requires, for ten years. You can sign up again with this address at any time:\n${link}\n\nThank you for streaming with us.\n\nLoopcast`,
  }),
  es: (name, link) => ({
    subject: 'Tu cuenta de Loopcast está cerrada',
    text: `Hola, ${name}:\n\ntu cuenta de Loopcast está cerrada: sus emisiones se detuvieron y se borraron sus vídeos, pistas de audio, destinos y claves de emisión. Solo conservamos durante diez años los registros de tus pagos que exige la ley. Puedes volver a registrarte con esta dirección cuando quieras:\n${link}\n\nGracias por emitir con nosotros.\n\nLoopcast`,
  }),
  hi: (name, link) => ({
    subject: 'आपका Loopcast खाता बंद हो गया है',
    text: `नमस्ते ${name},\n\nआपका Loopcast खाता बंद हो गया है: उसकी स्ट्रीम रुक गईं, और उसके वीडियो, साउंडट्रैक, गंतव्य और स्ट्रीम कुंजियाँ हटा दी गईं। हम केवल आपके भुगतानों के वे रिकॉर्ड दस साल तक रखते हैं जो कानून के अनुसार ज़रूरी हैं। आप कभी भी इस पते से फिर साइन अप कर सकते हैं:\n${link}\n\nहमारे साथ स्ट्रीमिंग करने के लिए धन्यवाद।\n\nLoopcast`,
  }),
  ru: (name, link) => ({
    subject: 'Ваш аккаунт Loopcast закрыт',
    text: `Здравствуйте, ${name}!\n\nВаш аккаунт Loopcast закрыт: трансляции остановлены, видео, звуковые дорожки, направления и ключи трансляций удалены. Мы храним только записи о ваших платежах, которые требует закон, в течение десяти лет. Вы можете снова зарегистрироваться с этим адресом в любое время:\n${link}\n\nСпасибо, что вели трансляции с нами.\n\nLoopcast`,
  }),
  ua: (name, link) => ({
    subject: 'Ваш акаунт Loopcast закрито',
    text: `Вітаємо, ${name}!\n\nВаш акаунт Loopcast закрито: трансляції зупинено, відео, звукові доріжки, напрямки та ключі трансляцій видалено. Ми зберігаємо лише записи про ваші платежі, яких вимагає закон, протягом десяти років. Ви можете знову зареєструватися з цією адресою будь-коли:\n${link}\n\nДякуємо, що транслювали з нами.\n\nLoopcast`,
  }),
};

const pageLink = (publicUrl: string, language: LanguageCode, page: string) => `${publicUrl}${urlPrefix(language)}${page}`;
const tokenLink = (publicUrl: string, language: LanguageCode, page: string, token: string) =>
  `${pageLink(publicUrl, language, `/app/auth/${page}`)}?token=${encodeURIComponent(token)}`;
const hoursOf = (ttlSeconds: number) => Math.round(ttlSeconds / 3600);

/** `a•••@example.com`: enough for the owner to recognise, little for anyone else reading the old mailbox. */
export function maskedAddress(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, Math.min(1, at))}•••${email.slice(at)}`;
}

/** To the new address: the link that moves the account there. */
export function emailChangeEmail(user: Recipient, newEmail: string, publicUrl: string, token: string, ttlSeconds: number): EmailMessage {
  const link = tokenLink(publicUrl, user.language, 'change-email', token);
  return { to: newEmail, link, ...emailChange[user.language](user.displayName, link, hoursOf(ttlSeconds)) };
}

/** To a new address that has an account of its own: nothing changed (the one asking learns nothing from the answer). */
export function emailInUseEmail(language: LanguageCode, address: string, publicUrl: string): EmailMessage {
  const link = pageLink(publicUrl, language, '/app/auth/login');
  return { to: address, link, ...emailInUse[language](link) };
}

/** To the old address once the account moved. */
export function emailChangedEmail(user: Recipient, oldEmail: string, newEmail: string, publicUrl: string): EmailMessage {
  const link = pageLink(publicUrl, user.language, '/');
  return { to: oldEmail, link, ...emailChanged[user.language](user.displayName, maskedAddress(newEmail), link) };
}

export function passwordChangedEmail(user: Recipient, publicUrl: string): EmailMessage {
  const link = pageLink(publicUrl, user.language, '/app/auth/forgot-password');
  return { to: user.email, link, ...passwordChanged[user.language](user.displayName, link) };
}

export function closeAccountEmail(user: Recipient, publicUrl: string, token: string, ttlSeconds: number): EmailMessage {
  const link = tokenLink(publicUrl, user.language, 'close-account', token);
  return { to: user.email, link, ...closeAccount[user.language](user.displayName, link, hoursOf(ttlSeconds)) };
}

export function accountClosedEmail(user: Recipient, publicUrl: string): EmailMessage {
  const link = pageLink(publicUrl, user.language, '/app/auth/register');
  return { to: user.email, link, ...accountClosed[user.language](user.displayName, link) };
}

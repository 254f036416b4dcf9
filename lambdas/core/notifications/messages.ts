// What Loopcast tells a creator without being asked, in their language: a stream that needs attention and its
// recovery, a trial about to end while a stream runs, a stream stopped because the plan no longer covers it, a
// scheduled start that could not happen. The same words go by e-mail and by Telegram.
import type { ErrorKey } from '../errors';
import { urlPrefix, type LanguageCode } from '../languages';

export type Alert =
  | { kind: 'needs attention'; streamId: string; streamTitle: string; minutes: number; reason?: string }
  | { kind: 'recovered'; streamId: string; streamTitle: string; minutes: number }
  | { kind: 'trial ending'; hours: number }
  | { kind: 'stopped by plan'; streamId: string; streamTitle: string }
  | { kind: 'scheduled start refused'; streamId: string; streamTitle: string; reason: ErrorKey };

export interface AlertText {
  subject: string;
  text: string;
  /** Where to act: the stream's page, or the plan's. */
  link: string;
}

type Words = (alert: Alert, name: string, link: string) => { subject: string; text: string };

/** Why a scheduled start could not happen, in a few words: the limits and payments a creator can act on; the stream's
 * page has the catalogue's full words for anything else. */
type Refusal = 'limit' | 'plan' | 'payment' | 'media' | 'other';
const refusalOf = (key: ErrorKey): Refusal =>
  key === 'stream limit'
    ? 'limit'
    : key === 'no active subscription' || key === 'account suspended'
      ? 'plan'
      : key === 'no valid payment'
        ? 'payment'
        : key === 'not found' || key === 'uploader encode error'
          ? 'media'
          : 'other';

const refusalWords: Record<LanguageCode, Record<Refusal, string>> = {
  en: {
    limit: 'your plan already runs as many streams at once as it allows. Stop another stream or choose a plan with more streams',
    plan: 'your plan is not active. Choose a plan to start streams again',
    payment: 'the last payment failed. Update your payment method to start streams again',
    media: 'its video is missing or could not be read. Choose another video for it',
    other: 'something it needs refused it. Its page says what',
  },
  es: {
    limit: 'tu plan ya tiene en marcha todas las emisiones simultáneas que permite. Detén otra emisión o elige un plan con más emisiones',
    plan: 'tu plan no está activo. Elige un plan para volver a iniciar emisiones',
    payment: 'el último pago falló. Actualiza tu método de pago para volver a iniciar emisiones',
    media: 'su vídeo falta o no se pudo leer. Elige otro vídeo para ella',
    other: 'algo que necesita la rechazó. Su página dice qué',
  },
  hi: {
    limit: 'आपका प्लान एक साथ जितनी स्ट्रीम की अनुमति देता है, उतनी पहले से चल रही हैं। कोई दूसरी स्ट्रीम रोकें या ज़्यादा स्ट्रीम वाला प्लान चुनें',
    plan: 'आपका प्लान सक्रिय नहीं है। स्ट्रीम फिर से शुरू करने के लिए एक प्लान चुनें',
    payment: 'पिछला भुगतान विफल रहा। स्ट्रीम फिर से शुरू करने के लिए अपना भुगतान तरीका अपडेट करें',
    media: 'इसका वीडियो मौजूद नहीं है या पढ़ा नहीं जा सका। इसके लिए कोई दूसरा वीडियो चुनें',
    other: 'इसके लिए ज़रूरी किसी चीज़ ने इसे अस्वीकार कर दिया। इसके पेज पर कारण लिखा है',
  },
  ru: {
    limit:
      'по вашему тарифу уже идёт столько трансляций одновременно, сколько он позволяет. Остановите другую трансляцию или выберите тариф с большим числом трансляций',
    plan: 'ваш тариф не активен. Выберите тариф, чтобы снова запускать трансляции',
    payment: 'последний платёж не прошёл. Обновите способ оплаты, чтобы снова запускать трансляции',
    media: 'её видео отсутствует или не читается. Выберите для неё другое видео',
    other: 'её не принял один из нужных ей сервисов. Причина указана на её странице',
  },
  ua: {
    limit:
      'за вашим тарифом уже йде стільки трансляцій одночасно, скільки він дозволяє. Зупиніть іншу трансляцію або оберіть тариф із більшою кількістю трансляцій',
    plan: 'ваш тариф не активний. Оберіть тариф, щоб знову запускати трансляції',
    payment: 'останній платіж не пройшов. Оновіть спосіб оплати, щоб знову запускати трансляції',
    media: 'її відео немає або його не вдалося прочитати. Оберіть для неї інше відео',
    other: 'її не прийняв один із потрібних їй сервісів. Причину вказано на її сторінці',
  },
};

const refusalText = (alert: Alert, language: LanguageCode) => (alert.kind === 'scheduled start refused' ? refusalWords[language][refusalOf(alert.reason)] : '');

const reasonLine = (alert: Alert, label: string) => (alert.kind === 'needs attention' && alert.reason ? `\n${label}: ${alert.reason}\n` : '');

const words: Record<LanguageCode, Words> = {
  en: (alert, name, link) => {
    switch (alert.kind) {
      case 'needs attention':
        return {
          subject: `Your stream "${alert.streamTitle}" needs attention`,
          text: `Hi ${name},\n\nyour stream "${alert.streamTitle}" has not been healthy for ${alert.minutes} minutes. Loopcast keeps restarting it by itself; if the destination refuses it (a wrong or expired stream key, a channel without live streaming), it needs you.\n${reasonLine(alert, 'Last problem')}\nSee it here:\n${link}\n\nWe will tell you again when it is back.\n\nLoopcast`,
        };
      case 'recovered':
        return {
          subject: `Your stream "${alert.streamTitle}" is back`,
          text: `Hi ${name},\n\nyour stream "${alert.streamTitle}" is healthy again, after ${alert.minutes} minutes.\n\nIts history:\n${link}\n\nLoopcast`,
        };
      case 'trial ending':
        return {
          subject: 'Your Loopcast trial ends soon',
          text: `Hi ${name},\n\nyour free trial ends in ${alert.hours} hours, and your running streams will stop then. Choose a plan to keep them going:\n${link}\n\nLoopcast`,
        };
      case 'stopped by plan':
        return {
          subject: `Your stream "${alert.streamTitle}" was stopped`,
          text: `Hi ${name},\n\nyour stream "${alert.streamTitle}" was stopped because your plan no longer covers it. Nothing you stored is deleted. Your plan:\n${link}\n\nLoopcast`,
        };
      case 'scheduled start refused':
        return {
          subject: `Your stream "${alert.streamTitle}" did not start on schedule`,
          text: `Hi ${name},\n\nyour stream "${alert.streamTitle}" was scheduled to start now, but it could not: ${refusalText(alert, 'en')}.\n\nIts page:\n${link}\n\nIts schedule stays as it is: the next scheduled start is tried again.\n\nLoopcast`,
        };
    }
  },
  es: (alert, name, link) => {
    switch (alert.kind) {
      case 'needs attention':
        return {
          subject: `Tu emisión "${alert.streamTitle}" necesita atención`,
          text: `Hola, ${name}:\n\ntu emisión "${alert.streamTitle}" lleva ${alert.minutes} minutos sin funcionar bien. Loopcast la reinicia por sí mismo; si el destino la rechaza (una clave de emisión incorrecta o caducada, un canal sin emisiones en directo), te necesita.\n${reasonLine(alert, 'Último problema')}\nMírala aquí:\n${link}\n\nTe avisaremos de nuevo cuando vuelva.\n\nLoopcast`,
        };
      case 'recovered':
        return {
          subject: `Tu emisión "${alert.streamTitle}" ha vuelto`,
          text: `Hola, ${name}:\n\ntu emisión "${alert.streamTitle}" vuelve a funcionar bien, tras ${alert.minutes} minutos.\n\nSu historial:\n${link}\n\nLoopcast`,
        };
      case 'trial ending':
        return {
          subject: 'Tu prueba de Loopcast termina pronto',
          text: `Hola, ${name}:\n\ntu prueba gratuita termina en ${alert.hours} horas y tus emisiones en curso se detendrán entonces. Elige un plan para mantenerlas:\n${link}\n\nLoopcast`,
        };
      case 'stopped by plan':
        return {
          subject: `Tu emisión "${alert.streamTitle}" se ha detenido`,
          text: `Hola, ${name}:\n\ntu emisión "${alert.streamTitle}" se ha detenido porque tu plan ya no la cubre. No se borra nada de lo que guardaste. Tu plan:\n${link}\n\nLoopcast`,
        };
      case 'scheduled start refused':
        return {
          subject: `Tu emisión "${alert.streamTitle}" no empezó según lo programado`,
          text: `Hola, ${name}:\n\ntu emisión "${alert.streamTitle}" tenía programado empezar ahora, pero no pudo: ${refusalText(alert, 'es')}.\n\nSu página:\n${link}\n\nSu programación sigue igual: el próximo inicio programado se intentará de nuevo.\n\nLoopcast`,
        };
    }
  },
  hi: (alert, name, link) => {
    switch (alert.kind) {
      case 'needs attention':
        return {
          subject: `आपकी स्ट्रीम "${alert.streamTitle}" पर ध्यान देने की ज़रूरत है`,
          text: `नमस्ते ${name},\n\nआपकी स्ट्रीम "${alert.streamTitle}" ${alert.minutes} मिनट से ठीक से नहीं चल रही है। Loopcast इसे अपने आप फिर से शुरू करता रहता है; अगर गंतव्य इसे अस्वीकार करता है (गलत या समाप्त स्ट्रीम कुंजी, बिना लाइव स्ट्रीमिंग वाला चैनल), तो इसे आपकी ज़रूरत है।\n${reasonLine(alert, 'पिछली समस्या')}\nयहाँ देखें:\n${link}\n\nइसके वापस आने पर हम आपको फिर बताएँगे।\n\nLoopcast`,
        };
      case 'recovered':
        return {
          subject: `आपकी स्ट्रीम "${alert.streamTitle}" वापस आ गई है`,
          text: `नमस्ते ${name},\n\nआपकी स्ट्रीम "${alert.streamTitle}" ${alert.minutes} मिनट बाद फिर से ठीक चल रही है।\n\nइसका इतिहास:\n${link}\n\nLoopcast`,
        };
      case 'trial ending':
        return {
          subject: 'आपका Loopcast ट्रायल जल्द समाप्त हो रहा है',
          text: `नमस्ते ${name},\n\nआपका मुफ़्त ट्रायल ${alert.hours} घंटे में समाप्त हो जाएगा, और तब आपकी चल रही स्ट्रीम बंद हो जाएँगी। उन्हें चालू रखने के लिए एक प्लान चुनें:\n${link}\n\nLoopcast`,
        };
      case 'stopped by plan':
        return {
          subject: `आपकी स्ट्रीम "${alert.streamTitle}" रोक दी गई`,
          text: `नमस्ते ${name},\n\nआपकी स्ट्रीम "${alert.streamTitle}" रोक दी गई क्योंकि आपका प्लान अब इसे शामिल नहीं करता। आपकी सहेजी गई कोई भी चीज़ हटाई नहीं जाती। आपका प्लान:\n${link}\n\nLoopcast`,
        };
      case 'scheduled start refused':
        return {
          subject: `आपकी स्ट्रीम "${alert.streamTitle}" तय समय पर शुरू नहीं हुई`,
          text: `नमस्ते ${name},\n\nआपकी स्ट्रीम "${alert.streamTitle}" को अभी शुरू होना था, लेकिन यह शुरू नहीं हो सकी: ${refusalText(alert, 'hi')}।\n\nइसका पेज:\n${link}\n\nइसका शेड्यूल वैसा ही रहता है: अगली तय शुरुआत पर फिर से कोशिश की जाएगी।\n\nLoopcast`,
        };
    }
  },
  ru: (alert, name, link) => {
    switch (alert.kind) {
      case 'needs attention':
        return {
          subject: `Трансляции «${alert.streamTitle}» нужно ваше внимание`,
          text: `Здравствуйте, ${name}!\n\nТрансляция «${alert.streamTitle}» уже ${alert.minutes} мин работает с перебоями. Loopcast перезапускает её сам; если площадка её не принимает (неверный или устаревший ключ трансляции, канал без прямых эфиров), нужны вы.\n${reasonLine(alert, 'Последняя проблема')}\nПосмотреть:\n${link}\n\nМы сообщим, когда она восстановится.\n\nLoopcast`,
        };
      case 'recovered':
        return {
          subject: `Трансляция «${alert.streamTitle}» снова работает`,
          text: `Здравствуйте, ${name}!\n\nТрансляция «${alert.streamTitle}» снова работает нормально, спустя ${alert.minutes} мин.\n\nЕё история:\n${link}\n\nLoopcast`,
        };
      case 'trial ending':
        return {
          subject: 'Пробный период Loopcast скоро закончится',
          text: `Здравствуйте, ${name}!\n\nВаш бесплатный пробный период закончится через ${alert.hours} ч, и тогда текущие трансляции остановятся. Выберите тариф, чтобы они продолжались:\n${link}\n\nLoopcast`,
        };
      case 'stopped by plan':
        return {
          subject: `Трансляция «${alert.streamTitle}» остановлена`,
          text: `Здравствуйте, ${name}!\n\nТрансляция «${alert.streamTitle}» остановлена, потому что ваш тариф её больше не покрывает. Ничего из сохранённого не удаляется. Ваш тариф:\n${link}\n\nLoopcast`,
        };
      case 'scheduled start refused':
        return {
          subject: `Трансляция «${alert.streamTitle}» не запустилась по расписанию`,
          text: `Здравствуйте, ${name}!\n\nТрансляция «${alert.streamTitle}» должна была запуститься сейчас по расписанию, но не смогла: ${refusalText(alert, 'ru')}.\n\nЕё страница:\n${link}\n\nРасписание остаётся прежним: следующий запуск по расписанию будет выполнен снова.\n\nLoopcast`,
        };
    }
  },
  ua: (alert, name, link) => {
    switch (alert.kind) {
      case 'needs attention':
        return {
          subject: `Трансляція «${alert.streamTitle}» потребує уваги`,
          text: `Вітаємо, ${name}!\n\nТрансляція «${alert.streamTitle}» уже ${alert.minutes} хв працює з перебоями. Loopcast перезапускає її сам; якщо майданчик її не приймає (неправильний або застарілий ключ трансляції, канал без прямих ефірів), потрібні ви.\n${reasonLine(alert, 'Остання проблема')}\nПодивитися:\n${link}\n\nМи повідомимо, коли вона відновиться.\n\nLoopcast`,
        };
      case 'recovered':
        return {
          subject: `Трансляція «${alert.streamTitle}» знову працює`,
          text: `Вітаємо, ${name}!\n\nТрансляція «${alert.streamTitle}» знову працює нормально, через ${alert.minutes} хв.\n\nЇї історія:\n${link}\n\nLoopcast`,
        };
      case 'trial ending':
        return {
          subject: 'Пробний період Loopcast скоро закінчиться',
          text: `Вітаємо, ${name}!\n\nВаш безкоштовний пробний період закінчиться через ${alert.hours} год, і тоді поточні трансляції зупиняться. Оберіть тариф, щоб вони тривали:\n${link}\n\nLoopcast`,
        };
      case 'stopped by plan':
        return {
          subject: `Трансляцію «${alert.streamTitle}» зупинено`,
          text: `Вітаємо, ${name}!\n\nТрансляцію «${alert.streamTitle}» зупинено, бо ваш тариф її більше не покриває. Нічого зі збереженого не видаляється. Ваш тариф:\n${link}\n\nLoopcast`,
        };
      case 'scheduled start refused':
        return {
          subject: `Трансляція «${alert.streamTitle}» не запустилася за розкладом`,
          text: `Вітаємо, ${name}!\n\nТрансляція «${alert.streamTitle}» мала запуститися зараз за розкладом, але не змогла: ${refusalText(alert, 'ua')}.\n\nЇї сторінка:\n${link}\n\nРозклад залишається тим самим: наступний запуск за розкладом буде виконано знову.\n\nLoopcast`,
        };
    }
  },
};

export function alertText(alert: Alert, to: { displayName: string; language: LanguageCode }, publicUrl: string): AlertText {
  const page = 'streamId' in alert && alert.kind !== 'stopped by plan' ? `/app/streams/${alert.streamId}` : '/app/billing';
  const link = `${publicUrl}${urlPrefix(to.language)}${page}`;
  return { link, ...words[to.language](alert, to.displayName, link) };
}

const linked: Record<LanguageCode, (name: string) => string> = {
  en: (name) => `Linked to the Loopcast account of ${name}. You will be told here when a stream needs attention.`,
  es: (name) => `Vinculado a la cuenta de Loopcast de ${name}. Te avisaremos aquí cuando una emisión necesite atención.`,
  hi: (name) => `${name} के Loopcast खाते से जुड़ गया। जब किसी स्ट्रीम पर ध्यान देने की ज़रूरत होगी, आपको यहाँ बताया जाएगा।`,
  ru: (name) => `Привязано к аккаунту Loopcast пользователя ${name}. Мы сообщим сюда, когда трансляции понадобится ваше внимание.`,
  ua: (name) => `Прив’язано до облікового запису Loopcast користувача ${name}. Ми повідомимо сюди, коли трансляції знадобиться ваша увага.`,
};

/** The bot's answer once a chat is linked, in the account's language. */
export const telegramLinkedText = (to: { displayName: string; language: LanguageCode }): string => linked[to.language](to.displayName);

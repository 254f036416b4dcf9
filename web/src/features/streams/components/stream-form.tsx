import { errorKeyOf } from '../../../api/client';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/button/button';
import { showToast } from '../../../components/toasts/toast-store';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import { useReadyMedia, useStreamChannels, useStreamPlan, type StreamPlan } from '../api/stream-sources';
import { useSaveStream, type Stream } from '../api/streams-api';
import { formProblemOf, type StreamField } from '../form-problems';
import { playlistMismatch } from '../playlist-draft';
import { ATTENTION_MINUTES, destinationCheck, draftOf, inputOf, type StreamDraft } from '../stream-draft';
import { scheduleChanged, scheduleCheck, scheduleDraftOf, scheduleOf, type ScheduleDraft } from '../schedule-draft';
import { useNow } from '../hooks/use-now';
import { ScheduleField } from './schedule-field';
import type { ThumbnailChoice } from '../thumbnail';
import { DestinationsField } from './destinations-field';
import { PlaylistField, PlaylistRefusal } from './playlist-field';
import { PlatformFitNotes } from './platform-fit-notes';
import { RestartTimesField } from './restart-times-field';
import { useQualityText } from '../../../lib/use-quality-text';
import { YouTubeSettingsField } from './youtube-settings-field';

/** The plan's streams at once and how many run now, before a start would be refused; no alarm when it is full. */
function PlanStreams({ plan }: { plan: StreamPlan }) {
  const { t, language } = useI18n();
  const full = plan.runningStreams >= plan.concurrentStreams;
  return (
    <p className="stream-form__plan" data-full={full || undefined}>
      {t('streams.form.planStreams', { count: plan.concurrentStreams, running: plan.runningStreams })}
      {full && (
        <>
          {' '}
          {t('streams.form.planFull')} <Link to={localizePath('/app/billing', language)}>{t('streams.seePlans')}</Link>
        </>
      )}
    </p>
  );
}

/** Creates a stream, or edits a stopped one. */
export function StreamForm({ stream, onDone }: { stream?: Stream; onDone: () => void }) {
  const { t, errorText, language } = useI18n();
  const { outputText } = useQualityText();
  const ids = useId();
  const media = useReadyMedia();
  const channels = useStreamChannels();
  const plan = useStreamPlan();
  const destinationLimit = plan.data?.destinationsPerStream;
  const [draft, setDraft] = useState(() => draftOf(stream));
  const [schedule, setSchedule] = useState(() => scheduleDraftOf(stream?.schedule, Date.now(), draft.timeZone));
  const now = useNow(60_000);
  const [thumbnail, setThumbnail] = useState<ThumbnailChoice>({ kind: 'keep' });
  const [attempts, setAttempts] = useState(0);
  const checked = attempts > 0;
  const save = useSaveStream(stream?.id);

  const change = (changes: Partial<StreamDraft>) => setDraft((current) => ({ ...current, ...changes }));
  // A new stream with exactly one destination to go to has it ticked (once: unticking it stays unticked).
  const onlyDestination = !stream && channels.data?.length === 1 && channels.data[0]?.youtube?.status !== 'revoked' ? channels.data[0]!.id : undefined;
  const [defaulted, setDefaulted] = useState(false);
  if (onlyDestination && !defaulted) {
    setDefaulted(true);
    if (draft.channelIds.length === 0) change({ channelIds: [onlyDestination] });
  }
  const changeSchedule = (changes: Partial<ScheduleDraft>) => setSchedule((current) => ({ ...current, ...changes }));
  const destinationProblem = destinationCheck(draft.channelIds, destinationLimit);
  // A one-time schedule's times only matter when it changed: a finished "Once" never blocks other edits.
  const scheduleContext = { saved: stream?.schedule, now, timeZone: draft.timeZone };
  const scheduleProblem = checked ? scheduleCheck(schedule, scheduleContext) : undefined;
  const apiProblem = save.isError ? formProblemOf(save.error) : undefined;
  const problemAt = (field: StreamField) => (apiProblem?.field === field ? apiProblem : undefined);

  const videos = media.data?.videos ?? [];
  const audios = media.data?.audios ?? [];
  const chosenVideo = videos.some((video) => video.id === draft.videoId) ? draft.videoId : '';
  const chosenOutput = videos.find((video) => video.id === chosenVideo)?.output;

  const channelsProblem = problemAt('channelIds');
  const destinationMessage =
    destinationProblem === 'over plan limit'
      ? errorText('plan feature unavailable')
      : checked && destinationProblem === 'none chosen'
        ? t('streams.form.chooseDestination')
        : channelsProblem && errorText(channelsProblem.key);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAttempts((count) => count + 1);
    // Videos that cannot be joined are named in the playlist field already.
    if (
      destinationProblem ||
      scheduleCheck(schedule, { ...scheduleContext, now: Date.now() }) ||
      (draft.playlist.on && playlistMismatch(draft.playlist.videoIds, videos))
    )
      return;
    // A new stream sends its schedule with it; an edited one only when it changed (or its zone did: the API moves it).
    const scheduleToSave = stream ? (scheduleChanged(stream.schedule, schedule) ? scheduleOf(schedule) : undefined) : scheduleOf(schedule);
    save.mutate(
      { input: inputOf({ ...draft, videoId: chosenVideo }), thumbnail, ...(scheduleToSave !== undefined ? { schedule: scheduleToSave } : {}) },
      {
        onSuccess: ({ stream: saved, thumbnailError }) => {
          if (thumbnailError) {
            // The stream exists now: the form closes, and says what became of the picture.
            showToast({
              message: t('streams.form.thumbnailFailed', { title: saved.title, reason: errorText(errorKeyOf(thumbnailError)) }),
              tone: 'error',
              durationMs: 10_000,
            });
          } else {
            showToast({
              message: stream ? t('streams.form.saved', { title: saved.title }) : t('streams.form.created', { title: saved.title }),
              tone: 'success',
            });
          }
          onDone();
        },
      },
    );
  };

  const fieldError = (field: StreamField) => {
    const problem = problemAt(field);
    return (
      problem && (
        <p className="stream-field__error" role="alert">
          {errorText(problem.key)}
        </p>
      )
    );
  };
  const timesProblem = problemAt('restartTimes');
  const timeZoneProblem = problemAt('timeZone');
  const scheduleApiProblem = problemAt('schedule');

  return (
    <form className="stream-form" onSubmit={submit}>
      {plan.data && <PlanStreams plan={plan.data} />}
      <div className="stream-field">
        <label className="stream-label" htmlFor={`${ids}-title`}>
          {t('streams.form.title')}
        </label>
        <input
          id={`${ids}-title`}
          className="stream-input"
          required
          maxLength={100}
          value={draft.title}
          onChange={(event) => change({ title: event.target.value })}
        />
        {fieldError('title')}
      </div>
      <div className="stream-field">
        <label className="stream-label" htmlFor={`${ids}-description`}>
          {t('streams.form.description')}
        </label>
        <textarea
          id={`${ids}-description`}
          className="stream-input"
          rows={3}
          maxLength={5000}
          value={draft.description}
          onChange={(event) => change({ description: event.target.value })}
        />
        {fieldError('description')}
      </div>
      <fieldset className="stream-field stream-fieldset">
        <legend className="stream-label">{t('streams.playlist.title')}</legend>
        <label className="playlist-field__toggle">
          <input
            type="checkbox"
            checked={draft.playlist.on}
            onChange={(event) =>
              change({
                playlist: {
                  ...draft.playlist,
                  on: event.target.checked,
                  videoIds: draft.playlist.videoIds.length || !chosenVideo ? draft.playlist.videoIds : [chosenVideo],
                },
              })
            }
          />
          {t('streams.playlist.useIt')}
        </label>
        <p className="stream-field__help">{t('streams.playlist.help')}</p>
        {draft.playlist.on && (
          <PlaylistField
            value={draft.playlist}
            onChange={(value) => change({ playlist: { ...draft.playlist, ...value } })}
            videos={videos}
            limit={plan.data?.playlistItems}
          />
        )}
        {problemAt('playlist') && <PlaylistRefusal problem={problemAt('playlist')!} videos={videos} />}
      </fieldset>
      <div className="stream-form__pair">
        {!draft.playlist.on && (
          <div className="stream-field">
            <label className="stream-label" htmlFor={`${ids}-video`}>
              {t('streams.form.video')}
            </label>
            <select id={`${ids}-video`} className="stream-input" required value={chosenVideo} onChange={(event) => change({ videoId: event.target.value })}>
              <option value="">{t('streams.form.chooseVideo')}</option>
              {videos.map((video) => (
                <option key={video.id} value={video.id}>
                  {video.title}
                </option>
              ))}
            </select>
            {chosenOutput && (
              <p className="stream-field__help" data-quality={chosenOutput.profile}>
                {t('streams.form.videoQuality', { quality: outputText(chosenOutput) })}
              </p>
            )}
            {media.isSuccess && videos.length === 0 && (
              <p className="stream-field__help">
                {t('streams.form.noVideos')} <Link to={localizePath('/app/videos', language)}>{t('streams.form.uploadVideo')}</Link>
              </p>
            )}
            {fieldError('videoId')}
          </div>
        )}
        <div className="stream-field">
          <label className="stream-label" htmlFor={`${ids}-audio`}>
            {t('streams.form.audio')}
          </label>
          <select
            id={`${ids}-audio`}
            className="stream-input"
            value={audios.some((audio) => audio.id === draft.audioId) ? draft.audioId : ''}
            onChange={(event) => change({ audioId: event.target.value })}
            aria-describedby={`${ids}-audio-help`}
          >
            <option value="">{t('streams.form.ownAudio')}</option>
            {audios.map((audio) => (
              <option key={audio.id} value={audio.id}>
                {audio.title}
              </option>
            ))}
          </select>
          <p id={`${ids}-audio-help`} className="stream-field__help">
            {t('streams.form.audioHelp')}
          </p>
          {fieldError('audioId')}
        </div>
      </div>
      <DestinationsField
        channels={channels.data ?? []}
        chosen={draft.channelIds}
        onChange={(channelIds) => change({ channelIds })}
        limit={destinationLimit}
        problem={destinationMessage}
      />
      <PlatformFitNotes
        video={videos.find((video) => video.id === (draft.playlist.on ? draft.playlist.videoIds[0] : chosenVideo))}
        channels={(channels.data ?? []).filter((channel) => draft.channelIds.includes(channel.id))}
      />
      <YouTubeSettingsField
        privacy={draft.privacy}
        onPrivacyChange={(privacy) => change({ privacy })}
        privacyProblem={fieldError('privacy')}
        hasCustomThumbnail={stream?.hasCustomThumbnail ?? false}
        thumbnailUrl={stream?.thumbnailUrl}
        thumbnail={thumbnail}
        onThumbnailChange={setThumbnail}
      />
      <RestartTimesField
        rows={draft.restartTimes}
        timeZone={draft.timeZone}
        onRowsChange={(restartTimes) => change({ restartTimes })}
        onTimeZoneChange={(timeZone) => change({ timeZone })}
        timesProblem={timesProblem && { message: errorText(timesProblem.key), ...(timesProblem.value !== undefined ? { value: timesProblem.value } : {}) }}
        timeZoneProblem={timeZoneProblem && (timeZoneProblem.key === 'invalid number' ? t('streams.form.timeZoneInvalid') : errorText(timeZoneProblem.key))}
      />
      <ScheduleField
        draft={schedule}
        onChange={changeSchedule}
        timeZone={draft.timeZone}
        check={scheduleProblem}
        refusal={scheduleApiProblem}
        attempt={attempts}
      />
      <div className="stream-field">
        <label className="stream-label" htmlFor={`${ids}-attention`}>
          {t('streams.form.attentionMinutes')}
        </label>
        <div className="stream-form__minutes">
          <input
            id={`${ids}-attention`}
            className="stream-input stream-form__minutes-input"
            type="number"
            inputMode="numeric"
            required
            min={ATTENTION_MINUTES.min}
            max={ATTENTION_MINUTES.max}
            step={1}
            value={draft.attentionMinutes}
            onChange={(event) => change({ attentionMinutes: event.target.value })}
            aria-describedby={`${ids}-attention-unit ${ids}-attention-help`}
            aria-invalid={problemAt('attentionMinutes') ? true : undefined}
          />
          <span id={`${ids}-attention-unit`}>{t('streams.form.minutesUnit', { count: Number(draft.attentionMinutes) || 0 })}</span>
        </div>
        <p id={`${ids}-attention-help`} className="stream-field__help">
          {t('streams.form.attentionHelp')}
        </p>
        {fieldError('attentionMinutes')}
      </div>
      {apiProblem && !apiProblem.field && (
        <p className="stream-field__error" role="alert">
          {errorText(apiProblem.key)}
        </p>
      )}
      <div className="stream-form__actions">
        <Button type="submit" loading={save.isPending}>
          {stream ? t('streams.form.save') : t('streams.form.create')}
        </Button>
        <Button variant="secondary" disabled={save.isPending} onClick={onDone}>
          {t('streams.form.cancel')}
        </Button>
      </div>
    </form>
  );
}

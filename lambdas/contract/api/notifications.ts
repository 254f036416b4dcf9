// What the API answers about how the creator is told (GET /notifications), built by
// lambdas/core/notifications/notifications.ts and read by the web app. Types only.

export interface NotificationsView {
  email: boolean;
  telegram: { available: boolean; linked: boolean; linkedAt?: string };
}

// Stripe objects exactly as they travel on the wire, typed against the installed stripe library so that every
// field the library declares is present (tsc fails when a new API version adds one). On the wire, decimal
// fields are strings; the library turns them into Decimal objects on the way in.
import type Stripe from 'stripe';
import { randomString } from '../shared/random';

export type Wire<T> = T extends Stripe.Decimal
  ? string
  : T extends string | number | boolean | null | undefined
    ? T
    : T extends (infer Item)[]
      ? Wire<Item>[]
      : T extends object
        ? { [K in keyof T]: Wire<T[K]> }
        : T;

export type Customer = Wire<Stripe.Customer>;
export type Product = Wire<Stripe.Product>;
export type Price = Wire<Stripe.Price>;
export type Subscription = Wire<Stripe.Subscription>;
export type PauseCollection = NonNullable<Subscription['pause_collection']>;
export type SubscriptionItem = Wire<Stripe.SubscriptionItem>;
export type Invoice = Wire<Stripe.Invoice>;
export type InvoiceLineItem = Wire<Stripe.InvoiceLineItem>;
export type CheckoutSession = Wire<Stripe.Checkout.Session>;
export type LineItem = Wire<Stripe.LineItem>;
export type PortalSession = Wire<Stripe.BillingPortal.Session>;
export type Event = Wire<Stripe.Event>;
export type List<T> = { object: 'list'; data: T[]; has_more: boolean; url: string };

/** Stripe's id shapes: a type prefix and a random tail (`cus_` + 14, most others + 24). */
export function newId(prefix: string, length = 24): string {
  return `${prefix}_${randomString(length)}`;
}

export function listOf<T>(data: T[], url: string, hasMore = false): List<T> {
  return { object: 'list', data, has_more: hasMore, url };
}

export function customerObject(fields: { created: number; email: string | null; name: string | null; metadata: Record<string, string> }): Customer {
  return {
    id: newId('cus', 14),
    object: 'customer',
    address: null,
    balance: 0,
    created: fields.created,
    currency: null,
    customer_account: null,
    default_source: null,
    delinquent: false,
    description: null,
    discount: null,
    email: fields.email,
    invoice_prefix: randomString(8, '0123456789ABCDEF'),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: fields.metadata,
    name: fields.name,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

export function productObject(fields: {
  created: number;
  name: string;
  description?: string | null;
  metadata?: Record<string, string>;
  active?: boolean;
}): Product {
  return {
    id: newId('prod', 14),
    object: 'product',
    active: fields.active ?? true,
    created: fields.created,
    default_price: null,
    description: fields.description ?? null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: fields.metadata ?? {},
    name: fields.name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: 'service',
    unit_label: null,
    updated: fields.created,
    url: null,
  };
}

export interface Recurrence {
  interval: 'day' | 'week' | 'month' | 'year';
  intervalCount: number;
}

export function priceObject(fields: {
  created: number;
  product: string;
  lookupKey: string | null;
  unitAmount: number;
  currency: string;
  recurring: Recurrence | null;
  nickname: string | null;
  metadata: Record<string, string>;
  active: boolean;
}): Price {
  return {
    id: newId('price'),
    object: 'price',
    active: fields.active,
    billing_scheme: 'per_unit',
    created: fields.created,
    currency: fields.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: fields.lookupKey,
    metadata: fields.metadata,
    nickname: fields.nickname,
    product: fields.product,
    recurring: fields.recurring && {
      interval: fields.recurring.interval,
      interval_count: fields.recurring.intervalCount,
      meter: null,
      trial_period_days: null,
      usage_type: 'licensed',
    },
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: fields.recurring ? 'recurring' : 'one_time',
    unit_amount: fields.unitAmount,
    unit_amount_decimal: String(fields.unitAmount),
  };
}

/** The legacy `plan` every subscription item still carries, derived from its recurring price. */
function planOf(price: Price): Wire<Stripe.Plan> {
  const recurring = price.recurring ?? { interval: 'month', interval_count: 1 };
  return {
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    interval: recurring.interval,
    interval_count: recurring.interval_count,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: typeof price.product === 'string' ? price.product : price.product.id,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

export function subscriptionItemObject(fields: {
  created: number;
  subscription: string;
  price: Price;
  quantity: number;
  periodStart: number;
  periodEnd: number;
}): SubscriptionItem {
  return {
    id: newId('si', 14),
    object: 'subscription_item',
    billing_thresholds: null,
    created: fields.created,
    current_period_end: fields.periodEnd,
    current_period_start: fields.periodStart,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOf(fields.price),
    price: fields.price,
    quantity: fields.quantity,
    subscription: fields.subscription,
    tax_rates: [],
  };
}

export function subscriptionObject(fields: {
  id: string;
  created: number;
  customer: string;
  currency: string;
  items: SubscriptionItem[];
  metadata: Record<string, string>;
  latestInvoice: string | null;
}): Subscription {
  return {
    id: fields.id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: fields.created,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: 'charge_automatically',
    created: fields.created,
    currency: fields.currency,
    customer: fields.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: { type: 'self' } },
    items: listOf(fields.items, `/v1/subscription_items?subscription=${fields.id}`),
    latest_invoice: fields.latestInvoice,
    livemode: false,
    managed_payments: null,
    metadata: fields.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: fields.created,
    status: 'active',
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' } },
    trial_start: null,
  };
}

export function invoiceObject(fields: {
  created: number;
  customer: Customer;
  subscription: Subscription;
  billingReason: 'subscription_create' | 'subscription_cycle';
  /** The invoice's own period: for a renewal Stripe reports the period that just ended. */
  periodStart: number;
  periodEnd: number;
  /** The period the subscription line bills for. */
  linePeriod: { start: number; end: number };
}): Invoice {
  const id = newId('in');
  const item = fields.subscription.items.data[0];
  if (!item) throw new Error('a subscription without items cannot be invoiced');
  const amount = (item.price.unit_amount ?? 0) * (item.quantity ?? 1);
  const sequence = fields.customer.next_invoice_sequence ?? 1;
  const line: InvoiceLineItem = {
    id: newId('il'),
    object: 'line_item',
    amount,
    currency: item.price.currency,
    description: `${item.quantity ?? 1} × ${item.price.nickname ?? item.price.lookup_key ?? item.price.id}`,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: id,
    livemode: false,
    metadata: fields.subscription.metadata,
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: false,
        proration_details: { credited_items: null },
        subscription: fields.subscription.id,
        subscription_item: item.id,
      },
      type: 'subscription_item_details',
    },
    period: fields.linePeriod,
    pretax_credit_amounts: [],
    pricing: {
      price_details: { price: item.price.id, product: String(item.price.product) },
      type: 'price_details',
      unit_amount_decimal: item.price.unit_amount_decimal,
    },
    quantity: item.quantity ?? 1,
    quantity_decimal: String(item.quantity ?? 1),
    subscription: fields.subscription.id,
    subtotal: amount,
    taxes: [],
  };
  return {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Loopcast (fake Stripe)',
    account_tax_ids: null,
    amount_due: amount,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: amount,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: fields.billingReason,
    collection_method: 'charge_automatically',
    created: fields.created,
    currency: item.price.currency,
    custom_fields: null,
    customer: fields.customer.id,
    customer_account: null,
    customer_address: null,
    customer_email: fields.customer.email,
    customer_name: fields.customer.name ?? null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: fields.created,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: `https://invoice.stripe.com/i/acct_fake/test_${randomString(40)}`,
    invoice_pdf: `https://pay.stripe.com/invoice/acct_fake/test_${randomString(40)}/pdf`,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: listOf([line], `/v1/invoices/${id}/lines`),
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: `${fields.customer.invoice_prefix ?? 'FAKE'}-${String(sequence).padStart(4, '0')}`,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: { metadata: fields.subscription.metadata, subscription: fields.subscription.id },
      type: 'subscription_details',
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: fields.periodEnd,
    period_start: fields.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: 'open',
    status_transitions: { finalized_at: fields.created, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: amount,
    subtotal_excluding_tax: amount,
    test_clock: null,
    total: amount,
    total_discount_amounts: [],
    total_excluding_tax: amount,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: fields.created,
  };
}

export function lineItemObject(price: Price, quantity: number): LineItem {
  const amount = (price.unit_amount ?? 0) * quantity;
  return {
    id: newId('li'),
    object: 'item',
    adjustable_quantity: null,
    amount_discount: 0,
    amount_subtotal: amount,
    amount_tax: 0,
    amount_total: amount,
    currency: price.currency,
    description: price.nickname ?? price.lookup_key ?? null,
    metadata: {},
    price,
    quantity,
  };
}

export function checkoutSessionObject(fields: {
  id: string;
  url: string;
  created: number;
  mode: 'payment' | 'setup' | 'subscription';
  lineItems: LineItem[];
  customer: string | null;
  customerEmail: string | null;
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  successUrl: string | null;
  cancelUrl: string | null;
  locale: Stripe.Checkout.Session.Locale | null;
  allowPromotionCodes: boolean | null;
}): CheckoutSession {
  const total = fields.lineItems.reduce((sum, item) => sum + item.amount_total, 0);
  return {
    id: fields.id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: fields.allowPromotionCodes,
    allowed_payment_method_types: null,
    amount_subtotal: total,
    amount_total: total,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: fields.cancelUrl,
    client_reference_id: fields.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: fields.created,
    currency: fields.lineItems[0]?.currency ?? null,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: fields.customer,
    customer_account: null,
    customer_creation: fields.customer ? null : 'always',
    customer_details: fields.customerEmail
      ? { address: null, business_name: null, email: fields.customerEmail, individual_name: null, name: null, phone: null, tax_exempt: 'none', tax_ids: null }
      : null,
    customer_email: fields.customerEmail,
    discounts: [],
    expires_at: fields.created + 24 * 3600,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: fields.locale,
    managed_payments: null,
    metadata: fields.metadata,
    mode: fields.mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'always',
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: fields.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted_page',
    url: fields.url,
    wallet_options: null,
  };
}

export function portalSessionObject(fields: {
  id: string;
  url: string;
  created: number;
  customer: string;
  returnUrl: string | null;
  locale: Stripe.BillingPortal.Session.Locale | null;
}): PortalSession {
  return {
    id: fields.id,
    object: 'billing_portal.session',
    configuration: 'bpc_fake_default',
    created: fields.created,
    customer: fields.customer,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: fields.locale,
    on_behalf_of: null,
    return_url: fields.returnUrl,
    url: fields.url,
  };
}

-- The orderChat record of the brand chat (spec 03 §3): one conversation per purchase order between the
-- purchaser's staff member (IM user u<userId>) and the supplier as a brand (IM user b<merchantId>).
CREATE TABLE order_chats (
  order_id           bigint PRIMARY KEY REFERENCES purchase_orders (id),
  purchaser_user_id  bigint NOT NULL REFERENCES users (id),
  started_at         timestamptz NOT NULL,
  -- The message that opened the conversation about this order (an IM message id), once sent.
  message_id         bigint,
  created_at         timestamptz NOT NULL DEFAULT now()
);

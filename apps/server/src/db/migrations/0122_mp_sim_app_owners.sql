-- The LOCAL mini-program platform knows which merchant owns each of its apps (issue 38 item 8): a consent
-- named the app by nickname only, so another merchant's consent naming the victim's mini-program (or
-- official account) re-authorised it and rotated the victim's tokens. A pre-auth code now records the
-- merchant that asked for it, an app the merchant whose consent made it, and a consent may only
-- re-authorise an app of its own merchant.
ALTER TABLE mp_sim_preauth ADD COLUMN merchant_id bigint;
ALTER TABLE mp_sim_apps ADD COLUMN merchant_id bigint;

-- Apps made before this: owned by the merchant our side has them bound to, if any (an app nobody bound
-- is claimed by the next consent that names it).
UPDATE mp_sim_apps s SET merchant_id = a.merchant_id FROM mp_authorizers a WHERE a.app_id = s.app_id;
UPDATE mp_sim_apps s SET merchant_id = a.merchant_id FROM mp_accounts a
  WHERE a.app_id = s.app_id AND a.state = 'authorized' AND s.merchant_id IS NULL;

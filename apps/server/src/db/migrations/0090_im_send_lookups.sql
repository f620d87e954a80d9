-- The send checks' lookups of a batch of messages (module im, issue 9; store/send-lookups.ts), as a
-- function for the planner setting it runs with. As a prepared statement PostgreSQL compared each batch's
-- own plan with the generic one and kept planning it anew for every batch (measured: every execution
-- planned, about a twentieth of PostgreSQL's work per message); the generic plan finds every row by index
-- whatever the arrays hold (each list drives its lookups element by element, see store/send-lookups.ts).
CREATE FUNCTION im_send_lookups(senders text[], peers text[], chat_senders text[], client_from text[], client_ids text[], since timestamptz)
RETURNS TABLE (devices json, users json, blocks json, resends json)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN QUERY SELECT
    (SELECT coalesce(json_agg(json_build_array(d.username, d.resource)), '[]'::json) FROM unnest(senders) AS s(u)
      CROSS JOIN LATERAL (SELECT x.username, x.resource FROM im_devices x WHERE x.username = s.u AND x.last_seen_at >= since OFFSET 0) d),
    (SELECT coalesce(json_agg(u.username), '[]'::json) FROM unnest(peers) AS p(u)
      CROSS JOIN LATERAL (SELECT x.username FROM im_users x WHERE x.username = p.u LIMIT 1) u),
    (SELECT coalesce(json_agg(json_build_array(b.owner, b.blocked)), '[]'::json) FROM unnest(peers) AS p(u)
      CROSS JOIN LATERAL (SELECT x.owner, x.blocked FROM im_user_blocks x WHERE x.owner = p.u OFFSET 0) b
      WHERE b.blocked = ANY(chat_senders)),
    (SELECT coalesce(json_agg(json_build_array(m.id, m.seq, m.created_ms, m.from_user, m.client_id)), '[]'::json)
      FROM unnest(client_from, client_ids) AS c(from_user, client_id)
      CROSS JOIN LATERAL (SELECT x.id, x.seq, x.created_ms, x.from_user, x.client_id FROM im_messages x
        WHERE x.from_user = c.from_user AND x.client_id = c.client_id LIMIT 1) m);
END $$;

-- Organiser claims wrote e-mail addresses into the event history that the event's editors read:
-- the address a member typed ("givenEmail") and the one the code went to ("email"). Only the kind
-- of address stays ("contact": the event's contact address, "given": one at the website's domain);
-- organizer_claims still holds the recipient for the admins.
UPDATE event_history AS h
SET data = jsonb_build_object(
  'recipient',
  COALESCE(
    h.data->>'recipient',
    CASE WHEN lower(h.data->>'email') = lower(trim(e.contact_email)) THEN 'contact' ELSE 'given' END
  )
)
FROM events AS e
WHERE e.id = h.event_id
  AND h.type IN ('organizer_validation_sent', 'organizer_validation')
  AND (h.data ? 'email' OR h.data ? 'givenEmail');

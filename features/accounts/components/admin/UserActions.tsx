import { Download, Trash2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { cx } from "../../../../shared/ui/cx.ts";
import {
  DANGER_BUTTON,
  HINT_CLASS,
  INPUT_CLASS,
  LABEL_CLASS,
  SECONDARY_BUTTON,
} from "../../../../shared/ui/fields.tsx";
import { USER_ROLES } from "../../../identity/identity.contract.ts";
import type { AdminUserDetail } from "../../admin-users.contract.ts";

/** The detail page's forms, posted to its action by `intent` (they work without JavaScript). */
export const USER_INTENTS = ["role", "disable", "enable", "delete"] as const;
export type UserIntent = (typeof USER_INTENTS)[number];

const CARD = "rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5";

function Intent({ value }: { value: UserIntent }) {
  return <input type="hidden" name="intent" value={value} />;
}

function Items({ title, items }: { title: string; items: string[] }) {
  return (
    <div>
      <h4 className="font-semibold text-ink-900">{title}</h4>
      <ul className="mt-1 list-disc space-y-1 pl-5 text-ink-800">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  );
}

/** What is erased and what is kept, said before the final button (decision 048). */
function DeletionConfirm({ busy }: { busy: boolean }) {
  const { t } = useTranslation("admin");
  const erased = ["erasedProfile", "erasedActivity", "erasedCreations"] as const;
  const kept = ["keptResults", "keptComments", "keptEvents", "keptOrders"] as const;
  return (
    <details data-testid="delete-member">
      <summary className={cx(DANGER_BUTTON, "cursor-pointer list-none [&::-webkit-details-marker]:hidden")}>
        <Trash2 className="size-4" aria-hidden="true" />
        {t("users.actions.delete")}
      </summary>
      <div className="mt-3 space-y-3 rounded-xl border border-red-200 bg-red-50/50 p-4 text-sm">
        <h3 className="font-bold text-base text-red-900">{t("users.deletion.title")}</h3>
        <p className="text-ink-800">{t("users.deletion.intro")}</p>
        <div className="grid gap-3">
          <Items title={t("users.deletion.erased")} items={erased.map((key) => t(`users.deletion.${key}`))} />
          <Items title={t("users.deletion.kept")} items={kept.map((key) => t(`users.deletion.${key}`))} />
        </div>
        <Form method="post" className="space-y-3">
          <Intent value="delete" />
          <label className="flex items-start gap-2">
            <input type="checkbox" name="confirm" value="yes" required className="mt-0.5 size-4 accent-red-700" />
            <span className="font-medium text-ink-900">{t("users.deletion.confirm")}</span>
          </label>
          <button type="submit" className={DANGER_BUTTON} disabled={busy}>
            {t("users.deletion.submit")}
          </button>
        </Form>
      </div>
    </details>
  );
}

/**
 * The actions on a member: their role, disabling or enabling the account, their data as a JSON
 * file, and the GDPR deletion behind a confirmation. The admin's own account shows why its
 * actions are not offered; a deleted account has none left.
 */
export function UserActions({ user, self }: { user: AdminUserDetail["user"]; self: boolean }) {
  const { t } = useTranslation("admin");
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  if (user.status === "deleted") return null;
  return (
    <section className={cx(CARD, "space-y-5")} aria-labelledby="member-actions">
      <h2 id="member-actions" className="font-bold text-ink-900 text-lg">
        {t("users.actions.title")}
      </h2>
      {self ? <p className="rounded-lg bg-slate-50 px-3 py-2 text-ink-800 text-sm">{t("users.detail.self")}</p> : null}

      <Form method="post" className="flex flex-wrap items-end gap-2" key={user.role}>
        <Intent value="role" />
        <label className="block w-full sm:w-auto">
          <span className={LABEL_CLASS}>{t("users.actions.role")}</span>
          <select name="role" defaultValue={user.role} className={cx(INPUT_CLASS, "py-2")} disabled={self}>
            {USER_ROLES.map((role) => (
              <option key={role} value={role}>
                {t(`users.roles.${role}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={SECONDARY_BUTTON} disabled={self || busy}>
          {t("users.actions.changeRole")}
        </button>
      </Form>

      {self ? null : (
        <Form method="post">
          <Intent value={user.status === "disabled" ? "enable" : "disable"} />
          <button type="submit" className={SECONDARY_BUTTON} disabled={busy}>
            {t(user.status === "disabled" ? "users.actions.enable" : "users.actions.disable")}
          </button>
          <p className={HINT_CLASS}>
            {t(user.status === "disabled" ? "users.actions.enableHint" : "users.actions.disableHint")}
          </p>
        </Form>
      )}

      <div>
        <a href={`/api/admin/user/${user.id}/export`} download className={SECONDARY_BUTTON}>
          <Download className="size-4" aria-hidden="true" />
          {t("users.actions.export")}
        </a>
        <p className={HINT_CLASS}>{t("users.actions.exportHint")}</p>
      </div>

      {self ? null : <DeletionConfirm busy={busy} />}
    </section>
  );
}

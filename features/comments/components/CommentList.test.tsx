import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { SessionUser } from "../../identity/identity.contract.ts";
import type { CommentView } from "../comments.contract.ts";
import { CommentList } from "./CommentsSection.tsx";

const base = {
  targetType: "event" as const,
  targetId: 3,
  rating: null,
  createdAt: "2026-05-20T08:00:00.000Z",
  editedAt: null,
  deleted: false,
  edition: null,
};
const comments: CommentView[] = [
  {
    ...base,
    id: 10,
    author: { id: 1, name: "Léa M.", profileSlug: null },
    body: "Très belle course.\nMerci aux bénévoles !",
    rating: 4,
    replies: [
      { ...base, id: 11, parentId: 10, author: { id: 2, name: "Hugo D.", profileSlug: null }, body: "D'accord !" },
    ],
  },
  { ...base, id: 12, author: null, body: "Message d'un ancien compte", replies: [] },
  {
    ...base,
    id: 13,
    author: null,
    body: "",
    deleted: true,
    replies: [{ ...base, id: 14, parentId: 13, author: { id: 1, name: "Léa M.", profileSlug: null }, body: "Réponse" }],
  },
];
const lea = { id: 1, displayName: "Léa Martin", emailStatus: "verified" } as SessionUser;

function renderList(user: SessionUser | null, canModerate = false) {
  const handlers = { onReply: vi.fn(), onEdit: vi.fn(async () => null), onDelete: vi.fn(), onReport: vi.fn() };
  render(
    <CommentList
      data={comments}
      locale="fr"
      user={user}
      canModerate={canModerate}
      canWrite={user !== null}
      replyingTo={null}
      replyForm={() => null}
      {...handlers}
    />,
  );
  return handlers;
}

const item = (id: number) => document.querySelector(`[data-comment-id="${id}"]`) as HTMLElement;

describe("the comment list", () => {
  it("shows names, ratings as text, line breaks, replies, and hides what it must", () => {
    renderList(null);
    const first = item(10);
    expect(within(first).getByText("Léa M.")).toBeInTheDocument();
    expect(within(first).getByText("Note : 4 sur 5")).toBeInTheDocument();
    const body = within(first).getByText(/Très belle course/);
    expect(body.textContent).toBe("Très belle course.\nMerci aux bénévoles !");
    expect(body).toHaveClass("whitespace-pre-line");
    expect(within(item(11)).getByText("D'accord !")).toBeInTheDocument();
    // A disabled account's comment stays without its name.
    expect(within(item(12)).getByText("Ancien membre")).toBeInTheDocument();
    // A deleted comment with replies is a placeholder above them.
    expect(screen.getByText("Commentaire supprimé")).toBeInTheDocument();
    expect(within(item(14)).getByText("Réponse")).toBeInTheDocument();
    // Visitors get no actions.
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("offers the author edit and delete, others reply and report", async () => {
    const handlers = renderList(lea);
    const own = within(item(10));
    expect(own.getByRole("button", { name: "Modifier" })).toBeInTheDocument();
    expect(own.getByRole("button", { name: "Supprimer" })).toBeInTheDocument();
    expect(own.queryByRole("button", { name: "Signaler" })).toBeNull();
    const other = within(item(11));
    expect(other.queryByRole("button", { name: "Modifier" })).toBeNull();
    expect(other.queryByRole("button", { name: "Supprimer" })).toBeNull();
    await userEvent.click(other.getByRole("button", { name: "Signaler" }));
    expect(handlers.onReport).toHaveBeenCalledWith(expect.objectContaining({ id: 11 }));
    await userEvent.click(other.getByRole("button", { name: "Répondre" }));
    expect(handlers.onReply).toHaveBeenCalledWith(10);

    await userEvent.click(own.getByRole("button", { name: "Modifier" }));
    const box = screen.getByRole("textbox", { name: "Modifier votre commentaire" });
    expect(box).toHaveAttribute("maxlength", "2000");
    await userEvent.clear(box);
    await userEvent.type(box, "Corrigé");
    await userEvent.click(screen.getByRole("button", { name: "Enregistrer" }));
    expect(handlers.onEdit).toHaveBeenCalledWith(expect.objectContaining({ id: 10 }), "Corrigé");
  });

  it("lets the event's organisers delete anyone's comment", async () => {
    const handlers = renderList({ ...lea, id: 99 }, true);
    await userEvent.click(within(item(11)).getByRole("button", { name: "Supprimer" }));
    expect(handlers.onDelete).toHaveBeenCalledWith(expect.objectContaining({ id: 11 }));
  });
});

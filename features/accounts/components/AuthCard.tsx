import type { ReactNode } from "react";

/** The centred card of the sign-in pages. */
export function AuthCard({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-8 sm:py-12">
      <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
        <h1 className="font-bold text-2xl text-ink-900">{title}</h1>
        {intro && <div className="mt-2 text-ink-700">{intro}</div>}
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}

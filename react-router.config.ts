import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  ssr: true,
  buildDirectory: "build",
  // React Router 7's behaviour, chosen explicitly (these are the defaults): each flag left unset
  // prints a "Future Flag Warning" on every typegen and build. Opting in is a v8 migration step.
  future: {
    v8_middleware: false,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;

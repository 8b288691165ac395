/// <reference types="vite/client" />
/// <reference types="@webgpu/types" />

// Svelte 5 compiles `<script lang="ts">` natively; nothing to preprocess.
export default {};

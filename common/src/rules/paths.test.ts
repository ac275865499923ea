import { describe, expect, it } from 'vitest';
import {
  addFolder,
  childFolder,
  cleanPath,
  displayTitle,
  documentUrl,
  fileName,
  folderName,
  folderOf,
  foldersOf,
  folderTrail,
  folderUrl,
  movedPath,
  newFolderName,
  rebasePath,
  subfolders,
} from './paths';

describe('spec 5, New folder', () => {
  it('an empty name is ignored', () => {
    expect(newFolderName('')).toBeNull();
    expect(addFolder(['/a/'], '/', '')).toEqual({ folders: ['/a/'], path: null });
    // A name made only of slashes or blanks is empty once stripped.
    expect(newFolderName('///')).toBeNull();
    expect(newFolderName('   ')).toBeNull();
  });

  it('slashes are stripped', () => {
    expect(newFolderName('a/b')).toBe('ab');
    expect(newFolderName('/drafts/')).toBe('drafts');
    expect(addFolder([], '/thesis/', 'ch/1')).toEqual({ folders: ['/thesis/ch1/'], path: '/thesis/ch1/' });
  });

  it('a same-named folder under the selected folder is not added', () => {
    const folders = ['/thesis/', '/thesis/drafts/'];
    expect(addFolder(folders, '/thesis/', 'drafts')).toEqual({ folders, path: '/thesis/drafts/' });
    expect(addFolder(folders, '/thesis/', 'dra/fts').folders).toEqual(folders);
    // The same name under another folder is a different folder.
    expect(addFolder(folders, '/', 'drafts').folders).toEqual([...folders, '/drafts/']);
  });
});

describe('spec 5, Move', () => {
  const doc = { title: 'Paper', path: '/thesis/' };

  it('nothing happens if the new path equals the old one', () => {
    expect(movedPath(doc, '/thesis/')).toBeNull();
    // Equal after normalising counts as equal too.
    expect(movedPath(doc, 'thesis//')).toBeNull();
    expect(movedPath(doc, '/thesis/Paper')).toBeNull();
    expect(movedPath({ title: 'x', path: '' }, '   ')).toBeNull();
    expect(movedPath(doc, '/other/')).toBe('/other/');
  });

  it('with several files the target gets a trailing slash', () => {
    expect(cleanPath('/archive', 'Paper', { several: true })).toBe('/archive/');
    expect(cleanPath('/archive/', 'Paper', { several: true })).toBe('/archive/');
    expect(movedPath(doc, '/archive', { several: true })).toBe('/archive/');
    // A file's own name survives a bulk move, and the title is not taken for a folder.
    expect(movedPath({ title: 'Paper', path: '/a/my-name' }, 'b', { several: true })).toBe('/b/my-name');
    expect(cleanPath('/archive/Paper', 'Paper', { several: true })).toBe('/archive/Paper/');
    // Documents of a moved folder keep their place below it.
    expect(movedPath({ title: 'T', path: '/a/b/c/', keep: 'b/c/' }, '/z', { several: true })).toBe('/z/b/c/');
  });

  it('paths get a leading slash', () => {
    expect(cleanPath('thesis/', 'Paper')).toBe('/thesis/');
    expect(cleanPath('notes', 'Paper')).toBe('/notes');
  });

  it('repeated slashes collapse', () => {
    expect(cleanPath('//thesis///drafts//', 'Paper')).toBe('/thesis/drafts/');
    expect(cleanPath('a//b', 'Paper', { several: true })).toBe('/a/b/');
  });

  it('a file-name tail is removed when the path ends with the title', () => {
    expect(cleanPath('/thesis/Paper', 'Paper')).toBe('/thesis/');
    expect(cleanPath('Paper', 'Paper')).toBe('/');
    // Only a whole last segment equal to the title counts.
    expect(cleanPath('/thesis/MyPaper', 'Paper')).toBe('/thesis/MyPaper');
    expect(cleanPath('/Paper/', 'Paper')).toBe('/Paper/');
  });

  it('a blank path becomes empty', () => {
    expect(cleanPath('', 'Paper')).toBe('');
    expect(cleanPath('  \t ', 'Paper')).toBe('');
    expect(cleanPath(' ', 'Paper', { several: true })).toBe('');
    expect(movedPath({ title: 'x', path: '/a/' }, ' ')).toBe('');
  });

  it("an empty title becomes 'Untitled'", () => {
    expect(displayTitle('')).toBe('Untitled');
    expect(displayTitle('  ')).toBe('Untitled');
    expect(displayTitle('Paper')).toBe('Paper');
    expect(cleanPath('/drafts/Untitled', '')).toBe('/drafts/');
    // The web passes the translated word.
    expect(cleanPath('/drafts/Ohne Titel', '', { untitled: 'Ohne Titel' })).toBe('/drafts/');
    expect(fileName({ title: '', path: '/a/' }, 'Sans titre')).toBe('Sans titre');
  });
});

describe('folders and addresses', () => {
  it('finds the folder and the file name of a path', () => {
    expect(folderOf('')).toBe('/');
    expect(folderOf('/')).toBe('/');
    expect(folderOf('/a/b/')).toBe('/a/b/');
    expect(folderOf('/a/b/name')).toBe('/a/b/');
    expect(fileName({ title: 'T', path: '/a/name' })).toBe('name');
    expect(fileName({ title: 'T', path: '/a/' })).toBe('T');
  });

  it('lists every folder with its ancestors and the direct subfolders of one', () => {
    const folders = foldersOf(['', '/a/b/c/', '/a/x', '/d/']);
    expect(folders).toEqual(['/a/', '/a/b/', '/a/b/c/', '/d/']);
    expect(subfolders(folders, '/')).toEqual(['/a/', '/d/']);
    expect(subfolders(folders, '/a/')).toEqual(['/a/b/']);
    expect(folderName('/a/b/')).toBe('b');
    expect(childFolder('/', 'x')).toBe('/x/');
    expect(childFolder('/a', 'x')).toBe('/a/x/');
    expect(folderTrail('/a/b/')).toEqual(['/', '/a/', '/a/b/']);
  });

  it('rebases paths when a folder moves', () => {
    expect(rebasePath('/a/b/x', '/a/', '/z/')).toBe('/z/b/x');
    expect(rebasePath('/a/', '/a/', '/')).toBe('');
    expect(rebasePath('/c/', '/a/', '/z/')).toBe('/c/');
  });

  it('builds the overview and editor addresses of spec 2.1', () => {
    expect(folderUrl('/')).toBe('/');
    expect(folderUrl('/a b/c/')).toBe('/documents/a%20b/c/');
    expect(documentUrl('', 7)).toBe('/document/7');
    expect(documentUrl('/a/b/name', 7)).toBe('/document/a/b/7');
  });
});
